import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from './api-client.js';
import { createPublishedDataset } from './datasets-api-fixtures.js';
import { createWorkspace } from './fixtures.js';
import { OWNER, startTestServer, type TestServer } from './test-server.js';
import { sqliteHandle } from '../src/storage/open-database.js';

/**
 * A database that cannot grow answers writes with 507 and a sentence saying why, not a generic 500.
 * SQLite: the database really fills up (`max_page_count` caps its size). PostgreSQL: a trigger
 * raises the server's own `disk_full` / `out_of_memory` errors, which reach the error handler in
 * the driver's shape.
 */
let server: TestServer;
let api: TestApi;

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url, { apiKey: OWNER.apiKey });
});
afterAll(() => server?.close());

const db = () => server.app.database.db;
const isSqlite = () => server.app.database.dialect === 'sqlite';
const bigText = (i: number) => `${i} ${'lorem ipsum dolor sit amet '.repeat(800)}`;

async function recordCount(datasetId: string): Promise<number> {
  const row = await db().selectFrom('records').select((eb) => eb.fn.countAll<number>().as('n')).where('dataset_id', '=', datasetId).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function writeBatch(datasetId: string, batch: number) {
  const items = Array.from({ length: 5 }, (_, i) => ({ fields: { text: bigText(batch * 5 + i) } }));
  return api.post(`/datasets/${datasetId}/records/bulk`, { items });
}

/** Makes further record inserts fail as a full disk does; returns how to undo it. */
async function fillTheDisk(errcode: 'disk_full' | 'out_of_memory'): Promise<() => Promise<void>> {
  if (isSqlite()) {
    const sqlite = sqliteHandle(db());
    const pages = Number(sqlite.pragma('page_count', { simple: true }));
    sqlite.pragma(`max_page_count = ${pages}`);
    return async () => {
      sqlite.pragma('max_page_count = 4294967294');
    };
  }
  await sql.raw(`CREATE OR REPLACE FUNCTION test_resource_failure() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '${errcode}'; END $$`).execute(db());
  await sql.raw('CREATE TRIGGER test_resource_failure BEFORE INSERT ON records FOR EACH ROW EXECUTE FUNCTION test_resource_failure()').execute(db());
  return async () => {
    await sql.raw('DROP TRIGGER test_resource_failure ON records').execute(db());
    await sql.raw('DROP FUNCTION test_resource_failure()').execute(db());
  };
}

describe('a full disk', () => {
  it('answers 507 with a clear detail, saves nothing of the refused write, and writes work again once there is room', async () => {
    const workspace = await createWorkspace(api);
    const dataset = await createPublishedDataset(api, workspace.id);
    expect((await writeBatch(dataset.id, 0)).status).toBe(201);
    const undo = await fillTheDisk('disk_full');
    try {
      let refused: Awaited<ReturnType<typeof writeBatch>> | undefined;
      let before = 0;
      for (let batch = 1; batch <= 40 && !refused; batch += 1) {
        before = await recordCount(dataset.id);
        const res = await writeBatch(dataset.id, batch);
        if (res.status !== 201) refused = res;
      }
      expect(refused?.status).toBe(507);
      expect(refused?.body).toEqual({ detail: "The server's disk is full; the change was not saved." });
      expect(await recordCount(dataset.id)).toBe(before);
    } finally {
      await undo();
    }
    expect((await writeBatch(dataset.id, 100)).status).toBe(201);
  });

  // out_of_memory (SQLSTATE 53200) is a PostgreSQL server error; SQLite has no counterpart to provoke.
  it.skipIf(!process.env.SCHOLIA_TEST_DATABASE_URL?.startsWith('postgres'))('PostgreSQL out of memory answers 503', async () => {
    const workspace = await createWorkspace(api);
    const dataset = await createPublishedDataset(api, workspace.id);
    const undo = await fillTheDisk('out_of_memory');
    try {
      const res = await writeBatch(dataset.id, 0);
      expect(res.status).toBe(503);
      expect(res.body.detail).toMatch(/out of memory/);
    } finally {
      await undo();
    }
  });
});
