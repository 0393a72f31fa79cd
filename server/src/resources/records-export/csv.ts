/**
 * CSV text as RFC 4180 writes it: a cell holding a comma, a double quote, CR or LF is quoted and
 * its quotes doubled; rows end with CRLF. Values that are not strings are written as JSON so
 * lists and objects survive the trip (null and undefined become an empty cell).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
