import type { Kysely } from 'kysely';
import { fromJson } from '../storage/json.js';
import { listDatasetValidations } from '../storage/repositories/record-validations.repository.js';
import type { Tables } from '../storage/tables.js';

/**
 * The final answers of a dataset's validated records (Scholia extension) laid out for export:
 * per question name, one value per row (row = `rowOf` the record), null where the record is not
 * validated or its final answer leaves the question out.
 */
export async function validatedAnswerColumns(db: Kysely<Tables>, datasetId: string, rowOf: Map<string, number>, rows: number): Promise<(question: string) => unknown[]> {
  const validations = await listDatasetValidations(db, datasetId);
  const byRow = new Map<number, Record<string, { value: unknown } | undefined>>();
  for (const validation of validations) {
    const row = rowOf.get(validation.record_id);
    if (row !== undefined) byRow.set(row, fromJson(validation.values));
  }
  return (question) => {
    const column = new Array<unknown>(rows).fill(null);
    for (const [row, values] of byRow) column[row] = values[question]?.value ?? null;
    return column;
  };
}
