import type { Kysely } from 'kysely';
import { NotFoundError } from '../../errors.js';
import { findDatasetById } from '../../storage/repositories/datasets.repository.js';
import type { DatasetRow, Tables } from '../../storage/tables.js';

/** Loads a dataset or throws the contract's 404 (`Dataset with id `x` not found`). */
export async function getDatasetOrThrow(db: Kysely<Tables>, id: string): Promise<DatasetRow> {
  const dataset = await findDatasetById(db, id);
  if (!dataset) throw new NotFoundError(`Dataset with id \`${id}\` not found`);
  return dataset;
}
