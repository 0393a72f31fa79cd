import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataColumnsSettled, resetMetadataColumns } from '../../src/storage/search/metadata-columns.js';
import { TestApi } from '../api-client.js';
import { createSearchDataset } from '../search-fixtures.js';
import { startTestServer, type TestServer } from '../test-server.js';
import { buildWorld, createWorldUser, seedPublished, type World, type WorldUser } from './harness.js';

/**
 * Contract §6.1 under contention: three annotators (min_submitted = 2) create, update, bulk-upsert
 * and delete responses on the same records from 12 concurrent clients. Afterwards record statuses,
 * /progress, /users/progress and /me/.../metrics must equal what the final responses imply.
 */
let server: TestServer;
let world: World;
let annotators: WorldUser[];
let datasetId: string;
let recordIds: string[];

beforeAll(async () => {
  server = await startTestServer();
  world = await buildWorld(server);
  annotators = [world.users.annotatorMember, await createWorldUser(world.owner, 'annotator', world.ws), await createWorldUser(world.owner, 'annotator', world.ws)];
  datasetId = (await seedPublished(server, world.ws, { minSubmitted: 2 })).id;
  const res = await world.owner.put(`/datasets/${datasetId}/records/bulk`, {
    items: Array.from({ length: 12 }, (_, i) => ({ external_id: `hot-${i}`, fields: { text: `hot record ${i}` } })),
  });
  recordIds = res.body.items.map((r: { id: string }) => r.id);
});
afterAll(async () => server?.close());

const STATUSES = ['submitted', 'submitted', 'draft', 'discarded'] as const;
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)];

async function churn(api: TestApi, ops: number, unexpected: string[]) {
  for (let i = 0; i < ops; i += 1) {
    const recordId = pick(recordIds);
    const status = pick(STATUSES);
    const values = status === 'submitted' || Math.random() < 0.5 ? { label: { value: pick(['positive', 'negative']) } } : undefined;
    const op = Math.random();
    if (op < 0.35) {
      const res = await api.post(`/records/${recordId}/responses`, { status, values });
      if (![201, 409].includes(res.status)) unexpected.push(`create ${res.status} ${JSON.stringify(res.body)}`);
    } else if (op < 0.6) {
      const res = await api.post('/me/responses/bulk', { items: [{ record_id: recordId, status, values }, { record_id: pick(recordIds), status: 'submitted', values: { label: { value: 'neutral' } } }] });
      if (res.status !== 200 || res.body.items.some((item: { error: unknown }) => item.error)) unexpected.push(`bulk ${res.status} ${JSON.stringify(res.body)}`);
    } else {
      const record = await api.post(`/me/datasets/${datasetId}/records/search?include=responses`, { query: { text: { q: 'hot' } } });
      const mine = record.body.items?.find((item: { record: { id: string } }) => item.record.id === recordId)?.record.responses?.[0];
      if (!mine) continue;
      const res = op < 0.8 ? await api.put(`/responses/${mine.id}`, { status, values }) : await api.delete(`/responses/${mine.id}`);
      // 404: another client of the same annotator deleted it in between.
      if (![200, 404].includes(res.status)) unexpected.push(`update/delete ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
}

describe('concurrent responses on the same records (min_submitted = 2)', () => {
  it('leaves record statuses, progress and metrics exactly as the final responses imply', async () => {
    const unexpected: string[] = [];
    await Promise.all(annotators.flatMap((a) => Array.from({ length: 4 }, () => churn(a.api, 25, unexpected))));
    expect(unexpected).toEqual([]);

    const list = await world.owner.get(`/datasets/${datasetId}/records?limit=1000&include=responses`);
    const records = list.body.items as { id: string; status: string; responses: { user_id: string; status: string }[] }[];
    expect(records).toHaveLength(recordIds.length);
    const names = new Map(annotators.map((a) => [a.id, a.username]));
    const expectedUsers = new Map<string, Record<string, Record<string, number>>>();
    let completed = 0;
    for (const record of records) {
      const submitted = record.responses.filter((r) => r.status === 'submitted').length;
      const status = submitted >= 2 ? 'completed' : 'pending';
      expect(record.status, `record ${record.id} with ${submitted} submitted`).toBe(status);
      if (status === 'completed') completed += 1;
      // One response per user and record, whatever the races.
      expect(new Set(record.responses.map((r) => r.user_id)).size).toBe(record.responses.length);
      for (const response of record.responses) {
        const username = names.get(response.user_id)!;
        const counts = expectedUsers.get(username) ?? {
          completed: { submitted: 0, discarded: 0, draft: 0 },
          pending: { submitted: 0, discarded: 0, draft: 0 },
        };
        counts[status][response.status] += 1;
        expectedUsers.set(username, counts);
      }
    }

    const progress = await world.owner.get(`/datasets/${datasetId}/progress`);
    expect(progress.body).toMatchObject({ total: records.length, completed, pending: records.length - completed });

    const usersProgress = await world.owner.get(`/datasets/${datasetId}/users/progress`);
    for (const [username, counts] of expectedUsers) {
      expect(usersProgress.body.users.find((u: { username: string }) => u.username === username), username).toEqual({ username, ...counts });
    }

    for (const annotator of annotators) {
      const mine = records.flatMap((r) => r.responses.filter((x) => x.user_id === annotator.id));
      const count = (s: string) => mine.filter((r) => r.status === s).length;
      const metrics = await annotator.api.get(`/me/datasets/${datasetId}/metrics`);
      expect(metrics.body).toEqual({
        responses: {
          total: records.length,
          submitted: count('submitted'),
          discarded: count('discarded'),
          draft: count('draft'),
          pending: records.length - mine.length,
        },
      });
    }
  }, 120_000);
});

describe('concurrent bulk record writes to one dataset', () => {
  afterAll(() => resetMetadataColumns({ minRecords: 20_000, reloadCooldownMs: 30_000 }));

  it('all succeed (no lock cycle on the record-set version) and column searches match the stored values', async () => {
    const ds = await createSearchDataset(world.owner, world.ws);
    resetMetadataColumns({ minRecords: 0, reloadCooldownMs: 0 });
    // Six clients re-log overlapping records with new metadata at once, in orders of their own.
    const statuses = await Promise.all(
      Array.from({ length: 6 }, async (_, client) => {
        const seen: (number | string)[] = [];
        for (let round = 0; round < 4; round++) {
          const items = Array.from({ length: 30 }, (_, i) => {
            const n = (i * 7 + client * 5 + round * 3) % 45;
            return { external_id: `c${n}`, fields: { text: `concurrent ${n}`, context: 'c' }, metadata: { n: client * 10 + round } };
          });
          const res = await world.owner.put(`/datasets/${ds.id}/records/bulk`, { items });
          seen.push(res.status === 200 ? 200 : `${res.status} ${JSON.stringify(res.body)}`);
          // Searches in between keep loading the column copy while the writes go on.
          await world.owner.post(`/datasets/${ds.id}/records/search`, { filters: { and: [{ type: 'range', scope: { entity: 'metadata', metadata_property: 'n' }, ge: 20 }] } });
        }
        return seen;
      }),
    );
    expect(statuses.flat().filter((status) => status !== 200)).toEqual([]);

    const listed = await world.owner.get(`/datasets/${ds.id}/records?limit=1000`);
    const stored = new Map((listed.body.items as { external_id: string; metadata: { n: number } }[]).map((r) => [r.external_id, r.metadata.n]));
    const expected = [...stored].filter(([, n]) => n >= 20).map(([, n]) => n).sort((a, b) => b - a);
    await metadataColumnsSettled();
    const body = {
      filters: { and: [{ type: 'range', scope: { entity: 'metadata', metadata_property: 'n' }, ge: 20 }] },
      sort: [{ scope: { entity: 'metadata', metadata_property: 'n' }, order: 'desc' }],
    };
    await world.owner.post(`/datasets/${ds.id}/records/search?limit=100`, body); // loads the copy at the final version
    await metadataColumnsSettled();
    const found = await world.owner.post(`/datasets/${ds.id}/records/search?limit=100`, body);
    expect(found.body.total).toBe(expected.length);
    expect(found.body.items.map((item: { record: { metadata: { n: number } } }) => item.record.metadata.n)).toEqual(expected);
  });
});
