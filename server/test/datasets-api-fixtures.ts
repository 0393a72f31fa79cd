import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import { OWNER } from './test-server.js';
import type { TestApi } from './api-client.js';
import { uniqueName } from './fixtures.js';
import { newId } from '../src/lib/ids.js';
import { nowTimestamp } from '../src/lib/time.js';
import type { Tables } from '../src/storage/tables.js';

/**
 * Builders for datasets and their settings through the HTTP API as the owner (for the
 * dataset-settings route tests), plus direct inserts of records and responses for read-side
 * tests that must not depend on the record routes.
 */
const asOwner = (api: TestApi) => api.as({ apiKey: OWNER.apiKey });

export async function createDataset(api: TestApi, workspaceId: string, body: Record<string, unknown> = {}) {
  const res = await asOwner(api).post('/datasets', { name: uniqueName('ds'), workspace_id: workspaceId, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; workspace_id: string; [key: string]: unknown };
}

export async function createField(api: TestApi, datasetId: string, body: Record<string, unknown> = {}) {
  const res = await asOwner(api).post(`/datasets/${datasetId}/fields`, {
    name: uniqueName('field'),
    title: 'Field',
    settings: { type: 'text' },
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; [key: string]: unknown };
}

export async function createQuestion(api: TestApi, datasetId: string, body: Record<string, unknown> = {}) {
  const res = await asOwner(api).post(`/datasets/${datasetId}/questions`, {
    name: uniqueName('question'),
    title: 'Question',
    required: true,
    settings: { type: 'text' },
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; [key: string]: unknown };
}

/** A published dataset with one text field `text` and one required text question. */
export async function createPublishedDataset(api: TestApi, workspaceId: string, body: Record<string, unknown> = {}) {
  const dataset = await createDataset(api, workspaceId, body);
  await createField(api, dataset.id, { name: 'text', required: true });
  await createQuestion(api, dataset.id);
  const res = await asOwner(api).put(`/datasets/${dataset.id}/publish`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; name: string; workspace_id: string; [key: string]: unknown };
}

/** Inserts a record row directly (status pending, no responses). */
export async function insertRecord(db: Kysely<Tables>, datasetId: string, metadata: Record<string, unknown> | null = null) {
  const now = nowTimestamp();
  const id = newId();
  await db
    .insertInto('records')
    .values({
      id,
      dataset_id: datasetId,
      external_id: id,
      fields: JSON.stringify({ text: 'hello' }),
      metadata: metadata === null ? null : JSON.stringify(metadata),
      status: 'pending',
      submitted_count: 0,
      inserted_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** Inserts a response and the dataset_users row, and recounts the record's submitted responses. */
export async function insertResponse(
  db: Kysely<Tables>,
  datasetId: string,
  recordId: string,
  userId: string,
  status: 'draft' | 'submitted' | 'discarded',
  minSubmitted = 1,
) {
  const now = nowTimestamp();
  await db
    .insertInto('responses')
    .values({ id: newId(), record_id: recordId, dataset_id: datasetId, user_id: userId, status, values: null, inserted_at: now, updated_at: now })
    .execute();
  await db
    .insertInto('dataset_users')
    .values({ dataset_id: datasetId, user_id: userId, inserted_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const submitted = await db
    .selectFrom('responses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('record_id', '=', recordId)
    .where('status', '=', 'submitted')
    .executeTakeFirstOrThrow();
  const n = Number(submitted.n);
  await db
    .updateTable('records')
    .set({ submitted_count: n, status: n >= minSubmitted ? 'completed' : 'pending' })
    .where('id', '=', recordId)
    .execute();
}
