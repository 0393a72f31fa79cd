import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset } from '../../../test/dataset-fixtures.js';
import { createPrincipals, createUser, type Principals } from '../../../test/fixtures.js';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import { forEachSubmittedAnswer, recordRidsById } from './agreement.repository.js';

let server: TestServer;
let api: TestApi;
let principals: Principals;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: OWNER.apiKey });
  principals = await createPrincipals(api);
});
afterAll(() => server.close());

describe('reading a dataset’s answers in pages', () => {
  it('hands over every submitted answer and every record once, past page boundaries, serving other work between pages', async () => {
    const { db, dialect } = server.app.database;
    const dataset = await seedDataset(db, dialect, { workspaceId: principals.workspace.id });
    const annotators = [principals.annotatorMember, await createUser(api)];
    const now = nowTimestamp();
    const records = Array.from({ length: 12_001 }, (_, i) => ({
      id: newId(), dataset_id: dataset.id, external_id: `r${i}`, fields: JSON.stringify({ text: `t${i}` }), metadata: null,
      status: 'pending' as const, submitted_count: 0, inserted_at: now, updated_at: now,
    }));
    for (let i = 0; i < records.length; i += 1_000) await db.insertInto('records').values(records.slice(i, i + 1_000)).execute();
    const responses = annotators.flatMap((user, u) =>
      records.map((record, i) => ({
        id: newId(), record_id: record.id, dataset_id: dataset.id, user_id: user.id,
        // Every seventh answer of the second annotator is a draft: not handed over.
        status: u === 1 && i % 7 === 0 ? ('draft' as const) : ('submitted' as const),
        values: JSON.stringify({ label: { value: `v${i}` } }), inserted_at: now, updated_at: now,
      })),
    );
    for (let i = 0; i < responses.length; i += 1_000) await db.insertInto('responses').values(responses.slice(i, i + 1_000)).execute();

    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 0);
    const seen = new Map<string, string>();
    await forEachSubmittedAnswer(db, dataset.id, (recordId, userId, values) => {
      const key = `${recordId}/${userId}`;
      expect(seen.has(key)).toBe(false);
      seen.set(key, values);
    });
    const rids = await recordRidsById(db, dataset.id);
    clearInterval(ticker);

    const submitted = responses.filter((r) => r.status === 'submitted');
    expect(seen.size).toBe(submitted.length);
    for (const r of submitted) expect(JSON.parse(seen.get(`${r.record_id}/${r.user_id}`)!)).toEqual(JSON.parse(r.values));
    expect(rids.size).toBe(records.length);
    expect(new Set(rids.values()).size).toBe(records.length);
    if (dialect === 'sqlite') expect(turns).toBeGreaterThan(0);
  });
});
