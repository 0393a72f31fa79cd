import type { Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import type { Tables } from '../tables.js';
import { indexRecordTexts, removeRecordTexts, type TextIndexField } from './text-index.js';
import { enqueueTextIndex, TextIndexOp, trimAppliedChanges } from './text-index-queue.js';

/**
 * What a write transaction tells the text index, whatever the database. Call inside it.
 * - SQLite: the records are queued and indexed just after the commit, off the request
 *   (text-indexer.ts).
 * - PostgreSQL: indexed in the transaction. Its words are written by PostgreSQL's own processes,
 *   so deferring saves the request little; applied in batches on the server's pool, the index fell
 *   minutes behind a bulk ingestion on this project's 2-core benches.
 */
export interface WrittenRecordText {
  rid: number;
  fields: Record<string, unknown>;
  /** Never indexed before (a new record). */
  fresh: boolean;
}

export async function recordTextsWritten(db: Kysely<Tables>, datasetId: string, fields: TextIndexField[], records: WrittenRecordText[]): Promise<void> {
  if (records.length === 0) return;
  if (dialectOf(db) === 'postgres') {
    // An upsert (replaced words go), or plain INSERTs when every record is new.
    await indexRecordTexts(db, 'postgres', datasetId, fields, records, { fresh: records.every((r) => r.fresh) });
    return;
  }
  await trimAppliedChanges(db);
  await enqueueTextIndex(db, datasetId, records.filter((r) => r.fresh).map((r) => r.rid), TextIndexOp.insert);
  await enqueueTextIndex(db, datasetId, records.filter((r) => !r.fresh).map((r) => r.rid), TextIndexOp.update);
}

/** Deleted records' words: deleted in the transaction on PostgreSQL, queued on SQLite. */
export async function recordTextsDeleted(db: Kysely<Tables>, datasetId: string, rids: number[]): Promise<void> {
  if (rids.length === 0) return;
  if (dialectOf(db) === 'postgres') {
    await removeRecordTexts(db, 'postgres', datasetId, rids);
    return;
  }
  await trimAppliedChanges(db);
  await enqueueTextIndex(db, datasetId, rids, TextIndexOp.remove);
}
