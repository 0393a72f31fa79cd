import type { Kysely } from 'kysely';
import { NotFoundError } from '../../errors.js';
import { findDatasetById, findDatasetForUser, holdDatasetForRecordWrites, type DatasetForUser } from '../../storage/repositories/datasets.repository.js';
import type { DatasetRow, Tables } from '../../storage/tables.js';

/** Loads a dataset or throws the contract's 404 (`Dataset with id `x` not found`). */
export async function getDatasetOrThrow(db: Kysely<Tables>, id: string): Promise<DatasetRow> {
  const dataset = await findDatasetById(db, id);
  if (!dataset) throw notFound(id);
  return dataset;
}

/** The same with the caller's membership and whether they responded in it before (findDatasetForUser). */
export async function getDatasetForUserOrThrow(db: Kysely<Tables>, id: string, userId: string): Promise<DatasetForUser> {
  const found = await findDatasetForUser(db, id, userId);
  if (!found) throw notFound(id);
  return found;
}

/** Holds the dataset for the records a transaction writes (holdDatasetForRecordWrites), or the 404 if it went meanwhile. */
export async function holdDatasetOrThrow(db: Kysely<Tables>, id: string): Promise<void> {
  if (!(await holdDatasetForRecordWrites(db, id))) throw notFound(id);
}

const notFound = (id: string) => new NotFoundError(`Dataset with id \`${id}\` not found`);
