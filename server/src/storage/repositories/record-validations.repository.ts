import { sql, type Kysely } from 'kysely';
import type { RecordValidationRow, Tables } from '../tables.js';

type Db = Kysely<Tables>;

const CHUNK = 500;

/** Stores a record's final answer, replacing an earlier one (inserted_at kept). */
export async function saveValidations(db: Db, rows: RecordValidationRow[]): Promise<void> {
  // 6 columns per row: far below both dialects' parameter limits.
  for (let start = 0; start < rows.length; start += CHUNK) {
    await db
      .insertInto('record_validations')
      .values(rows.slice(start, start + CHUNK))
      .onConflict((oc) =>
        oc.column('record_id').doUpdateSet((eb) => ({
          values: eb.ref('excluded.values'),
          user_id: eb.ref('excluded.user_id'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** Removes a record's final answer; false when it had none. */
export async function deleteValidation(db: Db, recordId: string): Promise<boolean> {
  const result = await db.deleteFrom('record_validations').where('record_id', '=', recordId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every final answer of a dataset: its record and stored values (JSON text). */
export async function listDatasetValidations(db: Db, datasetId: string): Promise<Pick<RecordValidationRow, 'record_id' | 'values'>[]> {
  return db.selectFrom('record_validations').select(['record_id', 'values']).where('dataset_id', '=', datasetId).execute();
}

/** A final answer, and whether a response of its record changed after it was given. */
export type StoredValidation = RecordValidationRow & { stale: boolean };

/** The final answers of these records, by record id. */
export async function findValidations(db: Db, recordIds: readonly string[]): Promise<Map<string, StoredValidation>> {
  const found = new Map<string, StoredValidation>();
  for (let start = 0; start < recordIds.length; start += CHUNK) {
    const rows = await db
      .selectFrom('record_validations as v')
      .selectAll('v')
      .select(({ exists, selectFrom }) =>
        exists(
          selectFrom('responses as r')
            .select(sql`1`.as('one'))
            .whereRef('r.record_id', '=', 'v.record_id')
            .whereRef('r.updated_at', '>', 'v.updated_at'),
        ).as('stale'),
      )
      .where('v.record_id', 'in', recordIds.slice(start, start + CHUNK))
      .execute();
    for (const row of rows) found.set(row.record_id, { ...row, stale: Boolean(row.stale) });
  }
  return found;
}
