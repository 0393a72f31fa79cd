/**
 * One-dimensional PostgreSQL arrays in the binary wire format (`array_recv`), for the bulk
 * writes' `unnest($n::type[])` parameters. node-postgres sends a Buffer parameter as binary: no
 * array literal to quote on this side or to parse on PostgreSQL's, and a vector's bytes go as
 * they are instead of as hexadecimal text (a 384-number vector row took ~125 µs of PostgreSQL's
 * time as text, ~20 µs as binary).
 */

import { sql, type RawBuilder } from 'kysely';

/** The element types bulk writes use, with their built-in type OIDs (fixed in every PostgreSQL). */
const ELEMENT_TYPE_OIDS = { text: 25, jsonb: 3802, integer: 23, bigint: 20, bytea: 17, tsvector: 3614 } as const;

export type PostgresElementType = keyof typeof ELEMENT_TYPE_OIDS;

/** jsonb's binary form is a format version byte, then the JSON text. */
const JSONB_VERSION = 1;
const HEADER_BYTES = 20;
const NULL_LENGTH = -1;

/**
 * `values` as a binary `type[]`; null and undefined are SQL NULL. Text and jsonb values are
 * strings (jsonb: serialised JSON), integers and bigints numbers, bytea bytes, tsvectors their
 * binary form (postgres-binary-tsvector.ts).
 */
export function postgresBinaryArray(type: PostgresElementType, values: readonly unknown[]): Buffer {
  const lengths = values.map((value) => elementLength(type, value));
  const size = lengths.reduce((sum, length) => sum + 4 + Math.max(0, length), HEADER_BYTES);
  const out = Buffer.allocUnsafe(size);
  let at = out.writeInt32BE(values.length === 0 ? 0 : 1, 0);
  at = out.writeInt32BE(lengths.includes(NULL_LENGTH) ? 1 : 0, at);
  at = out.writeInt32BE(ELEMENT_TYPE_OIDS[type], at);
  if (values.length === 0) return out.subarray(0, at);
  at = out.writeInt32BE(values.length, at);
  at = out.writeInt32BE(1, at); // lower bound
  values.forEach((value, i) => {
    at = out.writeInt32BE(lengths[i]!, at);
    if (lengths[i] !== NULL_LENGTH) at = writeElement(out, at, type, value);
  });
  return out;
}

/** `values` as a `$n::type[]` parameter of a statement, sent in the binary format. */
export function postgresArrayParameter(type: PostgresElementType, values: readonly unknown[]): RawBuilder<unknown> {
  return sql`${sql.val(postgresBinaryArray(type, values))}::${sql.raw(type)}[]`;
}

function elementLength(type: PostgresElementType, value: unknown): number {
  if (value === null || value === undefined) return NULL_LENGTH;
  switch (type) {
    case 'text':
      return Buffer.byteLength(String(value));
    case 'jsonb':
      return 1 + Buffer.byteLength(String(value));
    case 'integer':
      return 4;
    case 'bigint':
      return 8;
    case 'bytea':
    case 'tsvector':
      return (value as Uint8Array).byteLength;
  }
}

function writeElement(out: Buffer, at: number, type: PostgresElementType, value: unknown): number {
  switch (type) {
    case 'text':
      return at + out.write(String(value), at);
    case 'jsonb':
      out[at] = JSONB_VERSION;
      return at + 1 + out.write(String(value), at + 1);
    case 'integer':
      return out.writeInt32BE(Number(value), at);
    case 'bigint':
      return out.writeBigInt64BE(BigInt(value as number), at);
    case 'bytea':
    case 'tsvector':
      out.set(value as Uint8Array, at);
      return at + (value as Uint8Array).byteLength;
  }
}
