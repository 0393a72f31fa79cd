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

const reader = new RequestWorker<string, BulkBodyRead>(() => startWorkerThread(import.meta.url, 'bulk-body', undefined));
const packedBodies = new WeakMap<FastifyRequest, Extract<BulkBodyRead, { kind: 'read' }>>();

export async function parseBulkBody(request: FastifyRequest, text: string): Promise<unknown> {
  const read = text.length < OFF_LOOP_MIN_CHARS ? readBulkBody(text) : await readOffLoop(text);
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

/** Stops the reader's thread (tests of the fallback). */
export const stopBulkBodyReader = (): Promise<void> => reader.stop();
