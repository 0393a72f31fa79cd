import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN } from '../fixtures.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { buildWorld, isContractError, listApiRoutes, MATRIX_PRINCIPALS, snapshotTables, waitForJobs, type World } from './harness.js';
import { expectedStatus, ROUTE_EXPECTATIONS, sendRouteRequest } from './route-expectations.js';

/**
 * Contract §1.5 for every route the server registers, generated from its own route table:
 * each route × {anonymous, bad token, expired token, annotator/admin member and outsider, owner}.
 * A refused call must answer the contract's error shape and leave every table unchanged.
 */
let server: TestServer;
let world: World;
let routes: string[];

beforeAll(async () => {
  // Import/export jobs queued by the matrix must fail fast, not reach huggingface.co.
  server = await startTestServer({ env: { SCHOLIA_HUB_URL: 'http://127.0.0.1:9', SCHOLIA_DATASETS_SERVER_URL: 'http://127.0.0.1:9' } });
  world = await buildWorld(server);
  routes = listApiRoutes(server.app);
});
afterAll(async () => {
  await waitForJobs(server.app.database.db).catch(() => undefined);
  await server?.close();
});

describe('route table', () => {
  it('has an authorization expectation for every /api/v1 route, and none for a route that is gone', () => {
    expect(routes.length).toBeGreaterThan(60);
    expect(routes).toContain('POST /api/v1/me/responses/bulk');
    expect(routes.filter((route) => !ROUTE_EXPECTATIONS[route]), 'routes without an entry in route-expectations.ts').toEqual([]);
    expect(Object.keys(ROUTE_EXPECTATIONS).filter((route) => !routes.includes(route)), 'stale entries').toEqual([]);
  });
});

describe('authorization matrix', () => {
  for (const route of Object.keys(ROUTE_EXPECTATIONS)) {
    it(route, async () => {
      const expectation = ROUTE_EXPECTATIONS[route];
      const method = route.split(' ')[0];
      const successes = Array.isArray(expectation.success) ? expectation.success : [expectation.success];
      const failures: string[] = [];
      for (const principal of MATRIX_PRINCIPALS) {
        const want = expectedStatus(expectation.policy, principal, successes[0]);
        const allowed = successes.includes(want) && want < 400;
        const request = await expectation.request(world, allowed);
        const before = allowed ? undefined : await snapshotTables(world.db);
        const res = await sendRouteRequest(world.clients[principal], method, request);
        await request.after?.();
        const ok = allowed ? successes.includes(res.status) : res.status === want;
        if (!ok) failures.push(`${principal}: want ${want}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        if (res.status >= 400 && !isContractError(res.status, res.body)) failures.push(`${principal}: not a contract error body ${JSON.stringify(res.body)}`);
        if (want === 403 && res.status === 403) expect(res.body).toEqual(FORBIDDEN);
        if (before !== undefined && (await snapshotTables(world.db)) !== before) failures.push(`${principal}: refused call changed the database`);
      }
      expect(failures).toEqual([]);
    });
  }
});

describe('IDOR: ids of another workspace', () => {
  const other = () => ({ ds: world.otherDataset.id, record: world.otherRecordId, suggestion: world.otherSuggestionId, response: world.otherResponseId });

  it('path ids of another workspace are refused with 403 for members of this one, nothing written', async () => {
    const admin = world.users.adminMember.api;
    const annotator = world.users.annotatorMember.api;
    const before = await snapshotTables(world.db);
    const o = other();
    const calls = [
      admin.get(`/datasets/${o.ds}`),
      admin.get(`/datasets/${o.ds}/records`),
      admin.patch(`/datasets/${o.ds}`, { guidelines: 'x' }),
      admin.delete(`/datasets/${o.ds}`),
      admin.put(`/datasets/${o.ds}/records/bulk`, { items: [{ fields: { text: 'x' } }] }),
      admin.delete(`/datasets/${o.ds}/records?ids=${o.record}`),
      admin.get(`/records/${o.record}`),
      admin.patch(`/records/${o.record}`, { metadata: { split: 'test' } }),
      admin.delete(`/records/${o.record}`),
      admin.delete(`/suggestions/${o.suggestion}`),
      admin.put(`/responses/${o.response}`, { status: 'discarded' }),
      admin.delete(`/responses/${o.response}`),
      annotator.post(`/records/${o.record}/responses`, { status: 'discarded' }),
      admin.put(`/records/${o.record}/validation`, { values: { label: { value: 'negative' } } }),
      admin.delete(`/records/${o.record}/validation`),
      admin.post(`/datasets/${o.ds}/records/validation/bulk`, {}),
      admin.get(`/datasets/${o.ds}/agreement`),
      annotator.get(`/me/datasets/${o.ds}/metrics`),
      annotator.post(`/me/datasets/${o.ds}/records/search`, {}),
      annotator.get(`/me/datasets?workspace_id=${world.otherWs}`),
      admin.post('/datasets', { name: 'sneaky', workspace_id: world.otherWs }),
      admin.get(`/workspaces/${world.otherWs}/users`),
      admin.delete(`/workspaces/${world.otherWs}/users/${world.users.adminOutsider.id}`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect(await snapshotTables(world.db)).toBe(before);
  });

  it('/me/responses/bulk with a record of another workspace gives a per-item error and writes only the allowed item', async () => {
    const annotator = world.users.annotatorMember;
    const own = await world.owner.put(`/datasets/${world.dataset.id}/records/bulk`, { items: [{ fields: { text: 'own record' } }] });
    const ownRecord = own.body.items[0].id;
    const res = await annotator.api.post('/me/responses/bulk', {
      items: [
        { record_id: world.otherRecordId, status: 'submitted', values: { label: { value: 'negative' } } },
        { record_id: ownRecord, status: 'submitted', values: { label: { value: 'negative' } } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.items[0].item).toBeNull();
    expect(typeof res.body.items[0].error.detail).toBe('string');
    expect(JSON.stringify(res.body.items[0])).not.toContain('record of');
    expect(res.body.items[1].error).toBeNull();
    const written = await world.db.selectFrom('responses').select('record_id').where('user_id', '=', annotator.id).execute();
    expect(written.map((r) => r.record_id)).not.toContain(world.otherRecordId);
    expect(written.map((r) => r.record_id)).toContain(ownRecord);
  });

  it('ids of another dataset inside queries and bodies of allowed routes touch nothing outside', async () => {
    const admin = world.users.adminMember.api;
    const o = other();
    const otherRows = async () => ({
      record: await world.db.selectFrom('records').selectAll().where('id', '=', o.record).executeTakeFirst(),
      suggestions: await world.db.selectFrom('suggestions').selectAll().where('record_id', '=', o.record).execute(),
    });
    const before = await otherRows();
    expect(before.record).toBeDefined();

    // Unknown-to-this-dataset ids are ignored, not deleted elsewhere.
    expect((await admin.delete(`/datasets/${world.dataset.id}/records?ids=${o.record}`)).status).toBe(204);
    expect((await admin.delete(`/records/${world.recordId}/suggestions?ids=${o.suggestion}`)).status).toBe(204);
    // A question of another dataset is not a question of this record's dataset.
    const foreignQuestion = await admin.put(`/records/${world.recordId}/suggestions`, { question_id: world.otherDataset.questionIds.label, value: 'positive' });
    expect(foreignQuestion.status).toBe(422);
    // Upserting by the id of another dataset's record must not rewrite it.
    const hijack = await admin.put(`/datasets/${world.dataset.id}/records/bulk`, { items: [{ id: o.record, fields: { text: 'hijacked' } }] });
    expect(hijack.status).toBeLessThan(500);
    const create = await admin.post(`/datasets/${world.dataset.id}/records/bulk`, { items: [{ id: o.record, fields: { text: 'hijacked' } }] });
    expect(create.status).toBeLessThan(500);
    const patch = await admin.patch(`/records/${world.recordId}`, { suggestions: [{ question_id: world.otherDataset.questionIds.label, value: 'positive' }] });
    expect(patch.status).toBe(422);

    expect(await otherRows()).toEqual(before);
    const moved = await world.db.selectFrom('records').select(['id', 'dataset_id']).where('id', '=', o.record).executeTakeFirstOrThrow();
    expect(moved.dataset_id).toBe(world.otherDataset.id);
  });

  it('lists never include another workspace', async () => {
    const annotator = world.users.annotatorMember.api;
    const datasets = await annotator.get('/me/datasets');
    expect(datasets.body.items.map((d: { workspace_id: string }) => d.workspace_id)).not.toContain(world.otherWs);
    const workspaces = await annotator.get('/me/workspaces');
    expect(workspaces.body.items.map((w: { id: string }) => w.id)).toEqual([world.ws]);
  });
});
