import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createPublishedDataset } from '../../../test/datasets-api-fixtures.js';
import { createPrincipals, type Principals } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

/**
 * Progress, metrics and search totals read trigger-kept counters on SQLite (migration
 * 202611240100) and count on PostgreSQL: after every kind of write they must equal a real count.
 */
let server: TestServer;
let p: Principals;

beforeAll(async () => {
  server = await startTestServer();
  p = await createPrincipals(new TestApi(server.url));
});
afterAll(() => server.close());

/** The oracle: every record's status, counted here rather than by any query the server runs. */
async function countedByStatus(datasetId: string) {
  const rows = await server.app.database.db.selectFrom('records').select('status').where('dataset_id', '=', datasetId).execute();
  return {
    pending: rows.filter((row) => row.status === 'pending').length,
    completed: rows.filter((row) => row.status === 'completed').length,
  };
}

async function expectCountersExact(datasetId: string) {
  const real = await countedByStatus(datasetId);
  const progress = await p.owner.get(`/datasets/${datasetId}/progress`);
  expect(progress.body).toMatchObject({ total: real.pending + real.completed, completed: real.completed, pending: real.pending });
  const listed = await p.owner.post(`/datasets/${datasetId}/records/search?limit=1`, {});
  expect(listed.body.total).toBe(real.pending + real.completed);
  const metrics = await p.annotatorMember.api.get(`/me/datasets/${datasetId}/metrics`);
  expect(metrics.body.responses.total).toBe(real.pending + real.completed);
  return real;
}

describe('record counters', () => {
  it('follow inserts, upserts, status changes, deletes and distribution changes', async () => {
    const dataset = await createPublishedDataset(p.owner, p.workspace.id);
    const question = (await p.owner.get(`/datasets/${dataset.id}/questions`)).body.items[0];
    const answer = { [question.name]: { value: 'an answer' } };

    const items = Array.from({ length: 30 }, (_, i) => ({ external_id: `e${i}`, fields: { text: `record ${i}` } }));
    const created = await p.owner.put(`/datasets/${dataset.id}/records/bulk`, { items });
    expect(created.status).toBe(200);
    const ids: string[] = created.body.items.map((r: { id: string }) => r.id);
    expect(await expectCountersExact(dataset.id)).toEqual({ pending: 30, completed: 0 });

    // Re-logging existing records and adding new ones in one batch.
    await p.owner.put(`/datasets/${dataset.id}/records/bulk`, { items: [...items.slice(0, 5), { external_id: 'new', fields: { text: 'n' } }] });
    expect(await expectCountersExact(dataset.id)).toEqual({ pending: 31, completed: 0 });

    const responseIds: string[] = [];
    for (const id of ids.slice(0, 4)) {
      const submitted = await p.annotatorMember.api.post(`/records/${id}/responses`, { status: 'submitted', values: answer });
      expect(submitted.status).toBe(201);
      responseIds.push(submitted.body.id);
    }
    expect(await expectCountersExact(dataset.id)).toEqual({ pending: 27, completed: 4 });

    // A second submission needed per record: every completed record goes back to pending.
    expect((await p.owner.patch(`/datasets/${dataset.id}`, { distribution: { strategy: 'overlap', min_submitted: 2 } })).status).toBe(200);
    expect(await expectCountersExact(dataset.id)).toEqual({ pending: 31, completed: 0 });
    await p.owner.patch(`/datasets/${dataset.id}`, { distribution: { strategy: 'overlap', min_submitted: 1 } });

    // Bulk responses, a discard (no status change), then deleting a response and records.
    const bulk = await p.adminMember.api.post('/me/responses/bulk', {
      items: ids.slice(4, 8).map((id) => ({ record_id: id, status: 'submitted', values: answer })),
    });
    expect(bulk.status).toBe(200);
    await p.adminMember.api.post(`/records/${ids[8]}/responses`, { status: 'discarded' });
    expect(await expectCountersExact(dataset.id)).toEqual({ pending: 23, completed: 8 });

    expect((await p.annotatorMember.api.delete(`/responses/${responseIds[0]}`)).status).toBe(200);
    expect(await expectCountersExact(dataset.id)).toEqual({ pending: 24, completed: 7 });
    expect((await p.owner.delete(`/datasets/${dataset.id}/records?ids=${[ids[1], ids[20]].join(',')}`)).status).toBe(204);
    expect(await expectCountersExact(dataset.id)).toEqual({ pending: 23, completed: 6 });

    expect((await p.owner.delete(`/datasets/${dataset.id}`)).status).toBe(200);
    if (server.app.database.dialect === 'sqlite') {
      const left = await server.app.database.db.selectFrom('dataset_record_counts').selectAll().where('dataset_id', '=', dataset.id).execute();
      expect(left).toEqual([]);
    }
  });
});
