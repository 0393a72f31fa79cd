import type { ValidationIssue } from '../errors.js';

/**
 * Deepest nesting a JSON request body may have. The deepest body a client sends is a record's
 * metadata a few levels inside `items`; past this the body is hostile (walking or storing it
 * costs stack, and SQLite's JSON functions refuse nesting past 1,000 levels).
 */
export const MAX_JSON_DEPTH = 100;

/**
 * What a parsed JSON body may not hold, whatever the route: nesting past MAX_JSON_DEPTH, text or
 * object keys with NUL (PostgreSQL cannot store it, and a key is often used as a name in SQL;
 * refused on SQLite too, so a request does the same on either database), text with a lone
 * surrogate (`"\ud800"`: not Unicode, PostgreSQL refuses it), and numbers JSON.parse turned into
 * ±Infinity (`1e400`). The first offence found, as a 422 issue.
 */
export function findUnacceptableJson(value: unknown): ValidationIssue | undefined {
  const issue = visit(value, 1);
  if (!issue) return undefined;
  return { type: issue.type, loc: ['body', ...issue.path.reverse()], msg: issue.msg };
}

interface Found {
  type: string;
  msg: string;
  /** from the offending value up to the body's root (reversed once at the end) */
  path: (string | number)[];
}

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const loneSurrogate = (path: (string | number)[]): Found => ({
  type: 'string_unicode',
  msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
  path,
});

const nulCharacter = (holder: 'text' | 'keys', path: (string | number)[]): Found => ({
  type: 'value_error',
  msg: `Value error, ${holder} cannot contain the NUL character (\\u0000)`,
  path,
});

function visit(value: unknown, depth: number): Found | undefined {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return nulCharacter('text', []);
    return LONE_SURROGATE.test(value) ? loneSurrogate([]) : undefined;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : { type: 'finite_number', msg: 'Input should be a finite number', path: [] };
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > MAX_JSON_DEPTH) {
    return { type: 'value_error', msg: `Value error, JSON nested deeper than ${MAX_JSON_DEPTH} levels`, path: [] };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      // Numbers inline: a bulk write's vectors are hundreds of thousands of them.
      if (typeof item === 'number' && Number.isFinite(item)) continue;
      const found = visit(item, depth + 1);
      if (found) {
        found.path.push(i);
        return found;
      }
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (key.includes('\u0000')) return nulCharacter('keys', [key]);
    if (LONE_SURROGATE.test(key)) return loneSurrogate([key]);
    const found = visit((value as Record<string, unknown>)[key], depth + 1);
    if (found) {
      found.path.push(key);
      return found;
    }
  }
  return undefined;
}
