import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';

/** Jobs by status, for the ones waiting or running (finished ones only grow). */
export async function countActiveJobs(db: Kysely<Tables>): Promise<Record<'queued' | 'started', number>> {
  const rows = await db.selectFrom('jobs').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('status', 'in', ['queued', 'started']).groupBy('status').execute();
  const counts = { queued: 0, started: 0 };
  for (const row of rows) counts[row.status as keyof typeof counts] = Number(row.n);
  return counts;
}

/** The webhook outbox: deliveries not yet sent, those given up on, and the oldest unsent one's queue time. */
export async function webhookOutboxState(db: Kysely<Tables>): Promise<{ pending: number; failed: number; oldestPendingAt: string | null }> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('inserted_at').as('oldest')])
    .where('status', 'in', ['pending', 'sending', 'failed'])
    .groupBy('status')
    .execute();
  const unsent = rows.filter((row) => row.status !== 'failed');
  const oldest = unsent.map((row) => row.oldest).filter((at): at is string => typeof at === 'string').sort()[0] ?? null;
  return {
    pending: unsent.reduce((sum, row) => sum + Number(row.n), 0),
    failed: Number(rows.find((row) => row.status === 'failed')?.n ?? 0),
    oldestPendingAt: oldest,
  };
}

/** SQLite: changes waiting for the text index (PostgreSQL indexes inside the write). */
export async function countTextIndexQueue(db: Kysely<Tables>): Promise<number> {
  const row = await db.selectFrom('text_index_queue').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
