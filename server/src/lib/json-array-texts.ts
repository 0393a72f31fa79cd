/**
 * The source text of the arrays found at one path of a JSON document, e.g. `items.*.vectors.*`,
 * so a reply can repeat the numbers a client sent instead of formatting them again (formatting
 * the numbers of a bulk write's vectors costs more than storing them).
 *
 * Runs on text JSON.parse has already accepted: it checks nothing and skips what the path does
 * not reach. Duplicate keys give one entry each, in document order, so the last entry of a path
 * is the one JSON.parse kept.
 */
export interface ArrayText {
  path: (string | number)[];
  text: string;
}

/** `*` matches any key or index; any other step matches that object key. */
export function arrayTextsAt(text: string, pattern: readonly string[]): ArrayText[] {
  const found: ArrayText[] = [];
  const path: (string | number)[] = [];

  const visit = (start: number, depth: number): number => {
    const at = skipSpace(text, start);
    const c = text.charCodeAt(at);
    if (depth === pattern.length) {
      const end = skipValue(text, at);
      if (c === OPEN_ARRAY) found.push({ path: [...path], text: text.slice(at, end) });
      return end;
    }
    if (c === OPEN_OBJECT) return visitMembers(at, depth);
    if (c === OPEN_ARRAY && pattern[depth] === '*') return visitElements(at, depth);
    return skipValue(text, at);
  };

  const visitMembers = (open: number, depth: number): number => {
    let i = skipSpace(text, open + 1);
    if (text.charCodeAt(i) === CLOSE_OBJECT) return i + 1;
    for (;;) {
      const keyEnd = endOfString(text, i) + 1;
      const key = stringAt(text, i, keyEnd);
      const colon = skipSpace(text, keyEnd);
      if (pattern[depth] === '*' || pattern[depth] === key) {
        path.push(key);
        i = visit(colon + 1, depth + 1);
        path.pop();
      } else {
        i = skipValue(text, skipSpace(text, colon + 1));
      }
      i = skipSpace(text, i);
      if (text.charCodeAt(i) !== COMMA) return i + 1;
      i = skipSpace(text, i + 1);
    }
  };

  const visitElements = (open: number, depth: number): number => {
    let i = skipSpace(text, open + 1);
    if (text.charCodeAt(i) === CLOSE_ARRAY) return i + 1;
    for (let index = 0; ; index += 1) {
      path.push(index);
      i = skipSpace(text, visit(i, depth + 1));
      path.pop();
      if (text.charCodeAt(i) !== COMMA) return i + 1;
      i += 1;
    }
  };

  visit(0, 0);
  return found;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

function skipSpace(text: string, at: number): number {
  while (isSpace(text.charCodeAt(at))) at += 1;
  return at;
}

/** The index of the quote closing the string that opens at `open`. */
function endOfString(text: string, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = text.indexOf('"', from);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** The string token text[start, end) as a value (escapes decoded only when it has some). */
function stringAt(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** An array of numbers only: what vectors are, matched by the regular expression engine at once. */
const NUMBER_ARRAY = /\[[-+0-9.eE,\s]*\]/y;

/** The index just past the value that starts at `at`. */
function skipValue(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === QUOTE) return endOfString(text, at) + 1;
  if (c === OPEN_ARRAY) {
    NUMBER_ARRAY.lastIndex = at;
    if (NUMBER_ARRAY.test(text)) return NUMBER_ARRAY.lastIndex;
  }
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    let i = at;
    for (let d = text.charCodeAt(i); i < text.length && d !== COMMA && d !== CLOSE_OBJECT && d !== CLOSE_ARRAY && !isSpace(d); d = text.charCodeAt(i)) i += 1;
    return i;
  }
  let depth = 0;
  for (let i = at; ; i += 1) {
    const d = text.charCodeAt(i);
    if (d === QUOTE) i = endOfString(text, i);
    else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth += 1;
    else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
}
