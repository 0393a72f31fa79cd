import { expect } from 'vitest';
import type { TestApi } from './api-client.js';
import { OWNER } from './test-server.js';
import { uniqueName } from './fixtures.js';

/**
 * A published dataset built through the API (as the owner) for record read and search tests:
 * text fields `text`, `context` and an image field; label / multi-label / rating / text
 * questions; integer, float, terms and an annotator-hidden terms metadata property; a
 * 3-dimension vector `emb`.
 */

export interface SearchDataset {
  id: string;
  questionIds: Record<string, string>;
}

const options = (values: string[]) => values.map((value) => ({ value, text: value }));

export async function createSearchDataset(api: TestApi, workspaceId: string): Promise<SearchDataset> {
  const owner = api.as({ apiKey: OWNER.apiKey });
  const ok = (res: { status: number; body: unknown }, status = 201) => expect(res.status, JSON.stringify(res.body)).toBe(status);

  const created = await owner.post('/datasets', { name: uniqueName('search'), workspace_id: workspaceId });
  ok(created);
  const id: string = created.body.id;
  for (const [name, settings] of [
    ['text', { type: 'text' }],
    ['context', { type: 'text' }],
    ['picture', { type: 'image' }],
  ] as const) {
    ok(await owner.post(`/datasets/${id}/fields`, { name, title: name, required: name === 'text', settings }));
  }
  const questionIds: Record<string, string> = {};
  for (const [name, settings, required] of [
    ['label', { type: 'label_selection', options: options(['positive', 'negative', 'neutral']) }, true],
    ['topics', { type: 'multi_label_selection', options: options(['sports', 'politics', 'tech']) }, false],
    ['rating', { type: 'rating', options: [1, 2, 3, 4, 5].map((value) => ({ value })) }, false],
    ['comment', { type: 'text' }, false],
  ] as const) {
    const res = await owner.post(`/datasets/${id}/questions`, { name, title: name, required, settings });
    ok(res);
    questionIds[name] = res.body.id;
  }
  for (const [name, settings, visible] of [
    ['n', { type: 'integer' }, true],
    ['score', { type: 'float' }, true],
    ['group', { type: 'terms' }, true],
    ['secret', { type: 'terms' }, false],
  ] as const) {
    ok(await owner.post(`/datasets/${id}/metadata-properties`, { name, title: name, settings, visible_for_annotators: visible }));
  }
  ok(await owner.post(`/datasets/${id}/vectors-settings`, { name: 'emb', title: 'emb', dimensions: 3 }));
  ok(await owner.put(`/datasets/${id}/publish`), 200);
  return { id, questionIds };
}

/** Upserts records through `PUT /datasets/{id}/records/bulk`; returns the stored records in order. */
export async function upsertRecords(api: TestApi, datasetId: string, items: unknown[]): Promise<{ id: string; external_id: string }[]> {
  const res = await api.as({ apiKey: OWNER.apiKey }).put(`/datasets/${datasetId}/records/bulk`, { items });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items;
}

/** One admin search page as `[external_id, query_score]` pairs with its total: what two search paths must agree on. */
export async function searchPage(client: TestApi, datasetId: string, body: Record<string, unknown>, query: string) {
  const res = await client.post(`/datasets/${datasetId}/records/search?${query}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return {
    total: res.body.total as number,
    items: res.body.items.map((item: { record: { external_id: string }; query_score: number | null }) => [item.record.external_id, item.query_score]),
  };
}
