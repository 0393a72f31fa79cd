import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { FORBIDDEN, UNAUTHORIZED, createPrincipals, type Principals } from '../../../test/fixtures.js';
import { nowTimestamp } from '../../lib/time.js';

let server: TestServer;
let owner: TestApi;
let p: Principals;
const JOB_ID = 'import-3f2a9c';

beforeAll(async () => {
  server = await startTestServer();
  const api = new TestApi(server.url);
  owner = api.as({ apiKey: OWNER.apiKey });
  p = await createPrincipals(api);
  // A job row straight in storage: jobs are created by import/export, not under test here.
  const now = nowTimestamp();
  await server.app.database.db
    .insertInto('jobs')
    .values({ id: JOB_ID, type: 'import', status: 'started', payload: '{}', result: null, error: null, worker_id: 'w1', inserted_at: now, updated_at: now })
    .execute();
});
afterAll(() => server.close());

describe('GET /jobs/{job_id}', () => {
  it('returns id and status to owners and any admin', async () => {
    for (const client of [owner, p.adminMember.api, p.adminOutsider.api]) {
      const res = await client.get(`/jobs/${JOB_ID}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: JOB_ID, status: 'started' });
    }
  });

  it('says why a failed job failed', async () => {
    const now = nowTimestamp();
    await server.app.database.db
      .insertInto('jobs')
      .values({ id: 'export-failed', type: 'hub-export', status: 'failed', payload: '{}', result: null, error: 'The Hugging Face token is not valid', worker_id: 'w1', inserted_at: now, updated_at: now })
      .execute();
    const res = await owner.get('/jobs/export-failed');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'export-failed', status: 'failed', error: 'The Hugging Face token is not valid' });
  });

  it('404s on an unknown job, for every role (loaded before authorizing)', async () => {
    for (const client of [owner, p.annotatorMember.api]) {
      const res = await client.get('/jobs/nope');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Job with id `nope` not found' });
    }
  });

  it('answers a NUL in the id as bad input, never a 500 (PostgreSQL cannot store NUL)', async () => {
    const res = await owner.get('/jobs/%00');
    expect([404, 422]).toContain(res.status);
    expect(res.body).toHaveProperty('detail');
  });

  it('403s for annotators, 401 anonymous', async () => {
    for (const user of [p.annotatorMember, p.annotatorOutsider]) {
      const res = await user.api.get(`/jobs/${JOB_ID}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    const res = await p.anonymous.get(`/jobs/${JOB_ID}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });
});
