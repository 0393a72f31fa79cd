import { errorCodes, type FastifyRequest } from 'fastify';
import { RequestValidationError } from '../../errors.js';
import { RequestWorker, WorkerLost } from '../../lib/request-worker.js';
import { startWorkerThread } from '../../lib/worker-threads.js';
import { readBulkBody, type BulkBodyRead } from './bulk-body-reader.js';
import { VectorValues } from './vector-values.js';

/**
 * The bulk record routes' body parser (their `parseJsonBody`). A body of some size is read on a
 * thread of its own (bulk-body-reader.ts): parsing a bulk write's vectors took as much of the
 * event loop as storing them. The vectors come back in one buffer and are put back in the body,
 * as VectorValues, by restoreBulkVectors once the route's schema has checked the rest.
 */

/** Below this many characters a body is read on the event loop: the hop to the thread would cost more. */
const OFF_LOOP_MIN_CHARS = 64 * 1024;

/**
 * Only bodies that are mostly vectors go to the thread. The parsed body is copied back to the
 * server, which for records without vectors costs the event loop about what parsing them there
 * does: bodies without vectors took ~12 % more server CPU a record that way, and bodies where one
 * record in ten has a 384-dimension vector (about half of their text) gained nothing
 * (bench/server-write.ts and bench/scale.ts, 2026-11-27).
 */
const goesOffLoop = (text: string) => text.length >= OFF_LOOP_MIN_CHARS && text.includes('"vectors"') && numberShare(text) >= OFF_LOOP_MIN_NUMBER_SHARE;

/** Share of a body's characters in numbers above which it goes to the thread (with 384-dimension vectors on every record: ~0.9). */
const OFF_LOOP_MIN_NUMBER_SHARE = 0.75;
/** Every how many characters numberShare looks at one. */
const SAMPLE_STRIDE = 61;

/** About what share of the text is numbers and their separators, from a sample of its characters. */
function numberShare(text: string): number {
  let numeric = 0;
  let sampled = 0;
  for (let i = 0; i < text.length; i += SAMPLE_STRIDE, sampled += 1) {
    const c = text.charCodeAt(i);
    // 0-9 . , - + e E and space
    if ((c >= 48 && c <= 57) || c === 46 || c === 44 || c === 45 || c === 43 || c === 101 || c === 69 || c === 32) numeric += 1;
  }
  return sampled === 0 ? 0 : numeric / sampled;
}

const reader = new RequestWorker<string, BulkBodyRead>(() => startWorkerThread(import.meta.url, 'bulk-body', undefined));
const packedBodies = new WeakMap<FastifyRequest, Extract<BulkBodyRead, { kind: 'read' }>>();

export async function parseBulkBody(request: FastifyRequest, text: string): Promise<unknown> {
  const read = goesOffLoop(text) ? await readOffLoop(text) : readBulkBody(text);
  if (read.kind === 'invalid-json') throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  if (read.kind === 'unacceptable') throw new RequestValidationError([read.issue]);
  if (read.packed.length > 0) packedBodies.set(request, read);
  return read.value;
}

async function readOffLoop(text: string): Promise<BulkBodyRead> {
  try {
    return await reader.run(text);
  } catch (error) {
    if (error instanceof WorkerLost) return readBulkBody(text);
    throw error;
  }
}

/**
 * Puts the vectors parseBulkBody took out back into the request's body, and returns the text
 * each was sent as (for vector-echo.ts). Called by the route, after its schema validation.
 */
export function restoreBulkVectors(request: FastifyRequest): Map<object, string> {
  const texts = new Map<object, string>();
  const read = packedBodies.get(request);
  if (!read) return texts;
  packedBodies.delete(request);
  const items = (request.body as { items: { vectors: Record<string, unknown> }[] }).items;
  for (const vector of read.packed) {
    const values = new VectorValues(read.numbers.buffer, read.numbers.byteOffset + vector.offset * Float64Array.BYTES_PER_ELEMENT, vector.length);
    items[vector.item].vectors[vector.name] = values;
    if (vector.text !== undefined) texts.set(values, vector.text);
  }
  return texts;
}

/** The reader's thread, for tests: whether it runs, and stopping it. */
export const bulkBodyReaderRunning = (): boolean => reader.running;
export const stopBulkBodyReader = (): Promise<void> => reader.stop();
