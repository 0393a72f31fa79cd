import { RequestValidationError, type ValidationIssue } from '../errors.js';

/** Location of a value inside the request, e.g. `['body', 'settings', 'label_selection', 'options', 0]`. */
export type Loc = (string | number)[];

type Input = Record<string, unknown>;

interface PresenceOptions {
  /** Key may be absent (then `undefined` is returned). */
  optional?: boolean;
  /** Key may be `null` (then `null` is returned). */
  nullable?: boolean;
}

/**
 * Hand-rolled checks for nested, type-dependent settings objects (fields, questions, metadata
 * properties). Each failure throws the 422 validation shape (contract §5) with pydantic's
 * `type`/`msg` wording and the exact location, so one bad key yields exactly one issue.
 */
export function fail(type: string, loc: Loc, msg: string): never {
  throw new RequestValidationError([{ type, loc, msg } satisfies ValidationIssue]);
}

export function isPlainObject(value: unknown): value is Input {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function present(obj: Input, key: string, loc: Loc, options: PresenceOptions): 'absent' | 'null' | 'value' {
  if (!(key in obj) || obj[key] === undefined) {
    if (options.optional) return 'absent';
    fail('missing', [...loc, key], 'Field required');
  }
  if (obj[key] === null && options.nullable) return 'null';
  return 'value';
}

export function checkObject(value: unknown, loc: Loc): Input {
  if (!isPlainObject(value)) fail('model_attributes_type', loc, 'Input should be a valid dictionary or object to extract fields from');
  return value;
}

export function checkBoolean(obj: Input, key: string, loc: Loc, options: PresenceOptions = {}): boolean | null | undefined {
  const state = present(obj, key, loc, options);
  if (state === 'absent') return undefined;
  if (state === 'null') return null;
  const value = obj[key];
  if (typeof value !== 'boolean') fail('bool_type', [...loc, key], 'Input should be a valid boolean');
  return value;
}

export interface StringOptions extends PresenceOptions {
  min?: number;
  max?: number;
}

export function checkString(obj: Input, key: string, loc: Loc, options: StringOptions = {}): string | null | undefined {
  const state = present(obj, key, loc, options);
  if (state === 'absent') return undefined;
  if (state === 'null') return null;
  const value = obj[key];
  if (typeof value !== 'string') fail('string_type', [...loc, key], 'Input should be a valid string');
  const length = [...value].length;
  if (options.min !== undefined && length < options.min) {
    fail('string_too_short', [...loc, key], `String should have at least ${options.min} character${options.min === 1 ? '' : 's'}`);
  }
  if (options.max !== undefined && length > options.max) {
    fail('string_too_long', [...loc, key], `String should have at most ${options.max} character${options.max === 1 ? '' : 's'}`);
  }
  return value;
}

export interface NumberOptions extends PresenceOptions {
  /** Inclusive lower bound. */
  min?: number;
  /** Inclusive upper bound. */
  max?: number;
}

export function checkInteger(obj: Input, key: string, loc: Loc, options: NumberOptions = {}): number | null | undefined {
  const state = present(obj, key, loc, options);
  if (state === 'absent') return undefined;
  if (state === 'null') return null;
  const value = obj[key];
  if (typeof value !== 'number' || !Number.isInteger(value)) fail('int_type', [...loc, key], 'Input should be a valid integer');
  checkBounds(value, [...loc, key], options);
  return value;
}

export function checkNumber(obj: Input, key: string, loc: Loc, options: NumberOptions = {}): number | null | undefined {
  const state = present(obj, key, loc, options);
  if (state === 'absent') return undefined;
  if (state === 'null') return null;
  const value = obj[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) fail('float_type', [...loc, key], 'Input should be a valid number');
  checkBounds(value, [...loc, key], options);
  return value;
}

function checkBounds(value: number, loc: Loc, options: NumberOptions) {
  if (options.min !== undefined && value < options.min) {
    fail('greater_than_equal', loc, `Input should be greater than or equal to ${options.min}`);
  }
  if (options.max !== undefined && value > options.max) {
    fail('less_than_equal', loc, `Input should be less than or equal to ${options.max}`);
  }
}

export interface ArrayOptions extends PresenceOptions {
  min?: number;
  max?: number;
}

export function checkArray(obj: Input, key: string, loc: Loc, options: ArrayOptions = {}): unknown[] | null | undefined {
  const state = present(obj, key, loc, options);
  if (state === 'absent') return undefined;
  if (state === 'null') return null;
  const value = obj[key];
  if (!Array.isArray(value)) fail('list_type', [...loc, key], 'Input should be a valid list');
  if (options.min !== undefined && value.length < options.min) {
    fail('too_short', [...loc, key], `List should have at least ${options.min} item${options.min === 1 ? '' : 's'} after validation, not ${value.length}`);
  }
  if (options.max !== undefined && value.length > options.max) {
    fail('too_long', [...loc, key], `List should have at most ${options.max} item${options.max === 1 ? '' : 's'} after validation, not ${value.length}`);
  }
  return value;
}

export function checkLiteral<T extends string>(obj: Input, key: string, loc: Loc, allowed: readonly T[], options: PresenceOptions = {}): T | null | undefined {
  const state = present(obj, key, loc, options);
  if (state === 'absent') return undefined;
  if (state === 'null') return null;
  const value = obj[key];
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    const names = allowed.map((a) => `'${a}'`);
    const text = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];
    fail('literal_error', [...loc, key], `Input should be ${text}`);
  }
  return value as T;
}
