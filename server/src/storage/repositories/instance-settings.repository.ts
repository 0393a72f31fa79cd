import type { Kysely } from 'kysely';
import { nowTimestamp } from '../../lib/time.js';
import type { Tables } from '../tables.js';

/**
 * The stored value of `name`, storing `proposed` first when there is none. Concurrent first
 * calls (two processes booting at once) all get the one value that won the insert.
 */
export async function findOrInsertInstanceSetting(db: Kysely<Tables>, name: string, proposed: () => string): Promise<string> {
  const existing = await db.selectFrom('instance_settings').select('value').where('name', '=', name).executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('instance_settings')
    .values({ name, value: proposed(), inserted_at: nowTimestamp() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db.selectFrom('instance_settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return stored.value;
}
