import type { Kysely } from 'kysely';
import { requireAdminMember, requireMember } from '../../auth/access.js';
import type { DatasetRow, Tables, UserRow } from '../../storage/tables.js';

type Db = Kysely<Tables>;

/** Contract §1.5 for record writes: admins of the dataset's workspace and owners. */
export const recordPolicy = {
  /** bulk create / upsert / delete, PATCH and DELETE of one record, suggestion writes */
  write: (db: Db, user: UserRow, dataset: DatasetRow) => requireAdminMember(db, user, dataset.workspace_id),
  /** reading one record's suggestions; creating one's own response */
  read: (db: Db, user: UserRow, dataset: DatasetRow) => requireMember(db, user, dataset.workspace_id),
};
