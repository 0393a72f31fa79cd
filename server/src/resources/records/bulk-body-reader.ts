import secureJsonParse from 'secure-json-parse';
import { MAX_VECTOR_DIMENSIONS } from '@scholia/shared/contract';
import type { ValidationIssue } from '../../errors.js';
import { arrayTextsAt } from '../../lib/json-array-texts.js';
import { findUnacceptableJson } from '../../lib/json-input.js';

/**
 * A bulk record write's body read from its text, by the bulk-body worker thread (or inline for a
 * small body): parsed as the server's JSON parser does, checked for what no body may hold, and
 * with its vectors moved out of the parsed value into one Float64Array. Most of a bulk write with
 * vectors is their numbers; parsed here, their arrays never reach the server's heap, and the
 * buffer moves back without a copy. Runs without the server (no database, no Fastify).
 */
export type BulkBodyRead =
  | {
      kind: 'read';
      /** The body, each packed vector replaced by an empty array. */
      value: unknown;
      /** Every packed vector's numbers, one after another. */
      numbers: Float64Array<ArrayBuffer>;
      packed: PackedVector[];
    }
  /** Not JSON (or holding a `__proto__` key): the server's usual 400. */
  | { kind: 'invalid-json' }
  /** JSON no route may take (json-input.ts): a 422. */
  | { kind: 'unacceptable'; issue: ValidationIssue };

export interface PackedVector {
  /** Where it goes back: `items[item].vectors[name]`. */
  item: number;
  name: string;
  /** In numbers of `numbers`. */
  offset: number;
  length: number;
  /** The text the client sent for it, which a reply can repeat (vector-echo.ts). */
  text?: string;
}

const PARSE_OPTIONS = { protoAction: 'error', constructorAction: 'ignore' } as const;

export function readBulkBody(text: string): BulkBodyRead {
  let value: unknown;
  try {
    value = secureJsonParse(text, null, PARSE_OPTIONS);
  } catch {
    return { kind: 'invalid-json' };
  }
  // Packed first: the vectors' numbers are checked as they are copied, and the walk below skips them.
  const packed = packableVectors(value);
  const numbers = packed.length === 0 ? new Float64Array(0) : pack(value as Body, packed, text);
  const issue = findUnacceptableJson(value);
  if (issue) return { kind: 'unacceptable', issue };
  return { kind: 'read', value, numbers, packed };
}

type Body = { items: { vectors: Record<string, number[]> }[] };

/**
 * The vectors this reader takes out: arrays of numbers no longer than the schema allows, at
 * `items.*.vectors.*`. Anything else stays in place for the route's schema to judge.
 */
function packableVectors(value: unknown): PackedVector[] {
  const items = (value as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return [];
  const found: PackedVector[] = [];
  let offset = 0;
  items.forEach((item: unknown, index) => {
    const vectors = (item as { vectors?: unknown } | null)?.vectors;
    if (typeof vectors !== 'object' || vectors === null || Array.isArray(vectors)) return;
    for (const [name, vector] of Object.entries(vectors)) {
      if (!Array.isArray(vector) || vector.length === 0 || vector.length > MAX_VECTOR_DIMENSIONS || !finiteNumbers(vector)) continue;
      found.push({ item: index, name, offset, length: vector.length });
      offset += vector.length;
    }
  });
  return found;
}

/** Whether every element is a finite number (JSON.parse makes `1e400` Infinity; json-input.ts refuses it). */
function finiteNumbers(values: unknown[]): boolean {
  for (let i = 0; i < values.length; i += 1) {
    const n = values[i];
    if (typeof n !== 'number' || !Number.isFinite(n)) return false;
  }
  return true;
}

function pack(body: Body, packed: PackedVector[], text: string): Float64Array<ArrayBuffer> {
  const last = packed[packed.length - 1];
  const numbers = new Float64Array(last.offset + last.length);
  const texts = sentTexts(text);
  for (const vector of packed) {
    const vectors = body.items[vector.item].vectors;
    numbers.set(vectors[vector.name], vector.offset);
    vectors[vector.name] = [];
    vector.text = texts.get(textKey(vector.item, vector.name));
  }
  return numbers;
}

const textKey = (item: number, name: string) => `${item}\u0000${name}`;

/** Each vector's text by position; for a key written twice the last one, as JSON.parse kept it. */
function sentTexts(text: string): Map<string, string> {
  const texts = new Map<string, string>();
  if (!text.includes('"vectors"')) return texts;
  for (const { path, text: arrayText } of arrayTextsAt(text, ['items', '*', 'vectors', '*'])) {
    texts.set(textKey(path[1] as number, path[3] as string), arrayText);
  }
  return texts;
}
