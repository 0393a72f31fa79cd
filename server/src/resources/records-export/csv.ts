/**
 * CSV text as RFC 4180 writes it: a cell holding a comma, a double quote, CR or LF is quoted and
 * its quotes doubled; rows end with CRLF. Values that are not strings are written as JSON so
 * lists and objects survive the trip (null and undefined become an empty cell).
 *
 * Text that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) gets a leading `'`, as OWASP's CSV-injection advice says: records are written
 * by other people, and opening a download must not run what they typed. Numbers are left alone:
 * JSON writes them as plain literals (`-2.5`), which a spreadsheet reads as the number.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const safe = typeof value === 'number' ? text : neutraliseFormula(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

const FORMULA_START = /^[=+\-@\t\r]/;

function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
