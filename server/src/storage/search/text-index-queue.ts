import { sql, type Kysely } from 'kysely';
import type { Tables } from '../tables.js';
import { TEXT_SCHEMA } from './text-index.js';

/**
 * SQLite: text indexing happens after the write that needs it: the write transaction only appends what
 * changed to `text_index_queue`, and the text indexer (text-indexer.ts) works the queue in large
 * batches. The queue is a table of the same database, written in the same transaction as the
 * records, so an acknowledged write is never lost for the index: after a crash the indexer goes
 * on from where its last batch ended.
 */
export const TextIndexOp = {
  /** A new record, never indexed: its words are added. */
  insert: 0,
  /** A record whose fields changed: its old words are replaced. */
  update: 1,
  /** A deleted record: its words are removed. */
  remove: 2,
  /** A deleted dataset: its whole index goes. */
  drop: 3,
} as const;
export type TextIndexOp = (typeof TextIndexOp)[keyof typeof TextIndexOp];

/**
 * Queues records of a dataset for the text index; call inside the transaction that writes them, after trimAppliedChanges.
 * The rids go as one JSON array: one short statement, prepared once, whatever their number (a
 * VALUES row per rid was a new statement of a thousand parameters for each bulk write).
 */
export async function enqueueTextIndex(db: Kysely<Tables>, datasetId: string, rids: number[], op: TextIndexOp): Promise<void> {
  if (rids.length === 0) return;
  await sql`INSERT INTO text_index_queue (dataset_id, rid, op) SELECT ${datasetId}, value, ${op} FROM json_each(${JSON.stringify(rids)})`.execute(db);
}

/** Queues the removal of a deleted dataset's whole text index (its table lives in the text index file). */
export async function enqueueTextIndexDrop(db: Kysely<Tables>, datasetId: string): Promise<void> {
  await trimAppliedChanges(db);
  await sql`INSERT INTO text_index_queue (dataset_id, rid, op) VALUES (${datasetId}, NULL, ${TextIndexOp.drop})`.execute(db);
}

/**
 * Rows the indexer has applied (up to the text index file's mark) leave the queue with the next
 * write, in its transaction: the indexer never writes the records' file, and nothing writes it
 * between requests.
 */
export async function trimAppliedChanges(db: Kysely<Tables>): Promise<void> {
  await sql`DELETE FROM text_index_queue WHERE seq <= (SELECT through FROM ${sql.raw(TEXT_SCHEMA)}.text_index_state)`.execute(db);
}

/** A queue row as the indexer reads it. */
export type QueuedChange = [seq: number, datasetId: string, rid: number | null, op: TextIndexOp];

/** What one batch of queued changes asks of one dataset's index. */
export interface DatasetChanges {
  datasetId: string;
  /** The whole index goes (the dataset was deleted); nothing else is done for it. */
  drop: boolean;
  /** rids whose previous words must go first (indexed before this batch). */
  replaced: number[];
  /** rids to (re)index from their current fields; a rid whose record is gone by then is skipped. */
  indexed: number[];
  /** rids indexed before and deleted since: their words are removed. */
  removed: number[];
}

/**
 * Folds a batch of queue rows (in seq order) into one set of changes per dataset: a record
 * written several times is indexed once, from its fields as they are when the batch runs.
 */
export function foldQueuedChanges(rows: QueuedChange[]): DatasetChanges[] {
  const byDataset = new Map<string, { drop: boolean; records: Map<number, { wasIndexed: boolean; live: boolean }> }>();
  for (const [, datasetId, rid, op] of rows) {
    let dataset = byDataset.get(datasetId);
    if (!dataset) byDataset.set(datasetId, (dataset = { drop: false, records: new Map() }));
    if (op === TextIndexOp.drop) {
      dataset.drop = true;
      dataset.records.clear();
      continue;
    }
    if (dataset.drop || rid === null) continue;
    const before = dataset.records.get(rid);
    // Whether the index may hold words of this record from before the batch.
    const wasIndexed = before ? before.wasIndexed : op !== TextIndexOp.insert;
    dataset.records.set(rid, { wasIndexed, live: op !== TextIndexOp.remove });
  }
  return [...byDataset].map(([datasetId, { drop, records }]) => {
    const changes: DatasetChanges = { datasetId, drop, replaced: [], indexed: [], removed: [] };
    for (const [rid, { wasIndexed, live }] of records) {
      if (live) {
        changes.indexed.push(rid);
        if (wasIndexed) changes.replaced.push(rid);
      } else if (wasIndexed) changes.removed.push(rid);
    }
    return changes;
  });
}
