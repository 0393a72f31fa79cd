/**
 * Python renderings of JSON values, for error messages the reference builds with `repr()`,
 * `str()` and `type().__name__` (so our strings match byte for byte).
 */

/** Python `repr`: `'a'`, `['a', 1]`, `{'k': True}`, `None`. */
export function pyRepr(value: unknown): string {
  if (typeof value === 'string') return reprString(value);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${reprString(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}

/** Python `str`: strings as they are, everything else as `repr`. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

/** Python `type(value).__name__` of a parsed JSON value. */
export function pyType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** Python `repr` of a set built from the values (insertion order). */
export function pySetRepr(values: Iterable<unknown>): string {
  return `{${[...values].map(pyRepr).join(', ')}}`;
}

function reprString(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let body = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  if (quote === "'") body = body.replace(/'/g, "\\'");
  return `${quote}${body}${quote}`;
}
