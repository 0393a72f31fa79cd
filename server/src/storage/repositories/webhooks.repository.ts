import type { Kysely } from 'kysely';
import type { Tables, WebhookRow } from '../tables.js';

type Db = Kysely<Tables>;

export const findWebhookById = (db: Db, id: string) =>
  db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();

export const listWebhooks = (db: Db) => db.selectFrom('webhooks').selectAll().orderBy('inserted_at').execute();

export const countWebhooks = async (db: Db) =>
  Number((await db.selectFrom('webhooks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

export async function insertWebhook(db: Db, row: WebhookRow): Promise<WebhookRow> {
  await db.insertInto('webhooks').values(row).execute();
  return row;
}

export async function updateWebhook(db: Db, id: string, changes: Partial<WebhookRow>): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

export async function deleteWebhook(db: Db, id: string): Promise<void> {
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}
