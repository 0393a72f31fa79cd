import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { RecordJson } from './record.presenter.js';

/**
 * Bulk writes answer with the records they wrote, vectors included (contract §2.9). Formatting a
 * 384-dimension vector's numbers again costs about as much as parsing them did, so the reply
 * repeats the text the client sent for each vector it holds unchanged (`texts`, from
 * bulk-body.ts); JSON.parse reads that text back as the same numbers, which are the ones stored.
 * Vectors read from the database are formatted as usual.
 */
export function sendRecordsEchoingVectors<T extends { items: RecordJson[] }>(reply: FastifyReply, payload: T, texts: ReadonlyMap<object, string>): FastifyReply {
  if (texts.size === 0) return reply.send(payload);
  return reply.serializer((value) => stringifyWithVectorTexts(value as T, texts)).send(payload);
}

/**
 * JSON.stringify with each known vector replaced by a placeholder, then the placeholders by the
 * vectors' texts. The placeholder holds a random token a client cannot put in a field's text.
 */
function stringifyWithVectorTexts(payload: { items: RecordJson[] }, texts: ReadonlyMap<object, string>): string {
  const token = `vector-${randomBytes(12).toString('hex')}-`;
  const spliced: string[] = [];
  const items = payload.items.map((record) => {
    if (!record.vectors) return record;
    let vectors: Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(record.vectors)) {
      const vectorText = texts.get(value);
      if (vectorText === undefined) continue;
      vectors ??= { ...record.vectors };
      vectors[name] = token + spliced.length;
      spliced.push(vectorText);
    }
    return vectors ? { ...record, vectors } : record;
  });
  const parts = JSON.stringify({ ...payload, items }).split(`"${token}`);
  for (let k = 1; k < parts.length; k += 1) {
    const part = parts[k];
    const close = part.indexOf('"');
    parts[k] = spliced[Number(part.slice(0, close))] + part.slice(close + 1);
  }
  return parts.join('');
}
