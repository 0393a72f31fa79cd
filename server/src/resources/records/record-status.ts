import { sql, type Kysely } from 'kysely';
import { fromJson } from '../../storage/json.js';
import { lockRecordsForRecount, statusForSubmitted } from '../../storage/repositories/records.repository.js';
import type { DatasetRow, Tables } from '../../storage/tables.js';
import { preparedQuery } from '../../storage/prepared-query.js';

/** `min_submitted` of a dataset's task distribution (contract §6.1). */
export function minSubmitted(dataset: Pick<DatasetRow, 'distribution'>): number {
  return fromJson<{ min_submitted?: number }>(dataset.distribution).min_submitted ?? 1;
}

const submittedCount = sql<number>`(SELECT COUNT(*) FROM responses WHERE responses.record_id = records.id AND responses.status = 'submitted')`;
const recountOne = preparedQuery((db, min: number, id: string) =>
  db
    .updateTable('records')
    .set({ submitted_count: submittedCount, status: statusForSubmitted(submittedCount, min) })
    .where('id', '=', id),
);

/**
 * Recounts submitted responses of the given records and sets their status: `completed` iff
 * submitted >= min_submitted. Call in the transaction that changed their responses.
 */
export async function refreshRecordStatuses(db: Kysely<Tables>, dataset: DatasetRow, recordIds: string[]): Promise<void> {
  const min = minSubmitted(dataset);
  // Sorted once so every chunk locks in id order across concurrent transactions.
  const sorted = [...recordIds].sort();
  await lockRecordsForRecount(db, sorted);
  if (sorted.length === 1) {
    // One record (the submit path): the same statement, compiled once.
    await recountOne.all(db, min, sorted[0]);
    return;
  }
  for (let start = 0; start < sorted.length; start += 500) {
    const ids = sorted.slice(start, start + 500);
    await db
      .updateTable('records')
      .set({ submitted_count: submittedCount, status: statusForSubmitted(submittedCount, min) })
      .where('id', 'in', ids)
      .execute();
  }
}

/** After a distribution change every record's status follows the new minimum (maintained counts). */
export async function applyDistributionToRecords(db: Kysely<Tables>, dataset: DatasetRow): Promise<void> {
  const min = minSubmitted(dataset);
  await db
    .updateTable('records')
    .set({ status: statusForSubmitted(sql<number>`submitted_count`, min) })
    .where('dataset_id', '=', dataset.id)
    .execute();
}
