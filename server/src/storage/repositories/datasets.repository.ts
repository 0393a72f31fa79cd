import type { Kysely } from 'kysely';
import type { DatasetRow, Tables } from '../tables.js';

type Db = Kysely<Tables>;

export const findDatasetById = (db: Db, id: string): Promise<DatasetRow | undefined> =>
  db.selectFrom('datasets').selectAll().where('id', '=', id).executeTakeFirst();
