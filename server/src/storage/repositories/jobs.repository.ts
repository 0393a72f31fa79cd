import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';

type Db = Kysely<Tables>;

export const findJobById = (db: Db, id: string) => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
