import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createDataset, createField, createPublishedDataset, createQuestion, insertRecord, insertResponse } from '../../../test/datasets-api-fixtures.js';
import { FORBIDDEN, UNAUTHORIZED, createPrincipals, createUser, createWorkspace, uniqueName, type Principals } from '../../../test/fixtures.js';
import { PRINCIPALS, READ_MATRIX, WRITE_MATRIX, clientOf } from '../../../test/policy-matrix.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { tableExists as tableExistsIn } from '../../../test/storage-probes.js';

let server: TestServer;
let api: TestApi;
let p: Principals;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  p = await createPrincipals(api);
});
afterAll(() => server.close());

const tableExists = (name: string) => tableExistsIn(server.app.database, name);

describe('POST /datasets', () => {
  it('creates a draft with defaults', async () => {
    const name = uniqueName('ds');
    const res = await p.owner.post('/datasets', { name, workspace_id: p.workspace.id, id: null, inserted_at: null });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name,
      guidelines: null,
      allow_extra_metadata: true,
      status: 'draft',
      distribution: { strategy: 'overlap', min_submitted: 1 },
      metadata: null,
      workspace_id: p.workspace.id,
      last_activity_at: expect.stringMatching(TS),
      inserted_at: expect.stringMatching(TS),
      updated_at: expect.stringMatching(TS),
    });
    const fetched = await p.owner.get(`/datasets/${res.body.id}`);
    expect(fetched.body).toEqual(res.body);
  });

  it('keeps given guidelines, distribution, metadata and allow_extra_metadata', async () => {
    const res = await p.owner.post('/datasets', {
      name: uniqueName('ds'),
      workspace_id: p.workspace.id,
      guidelines: 'Be nice',
      allow_extra_metadata: false,
      distribution: { strategy: 'overlap', min_submitted: 3 },
      metadata: { repoId: 'a/b', imported: 'UI' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      guidelines: 'Be nice',
      allow_extra_metadata: false,
      distribution: { strategy: 'overlap', min_submitted: 3 },
      metadata: { repoId: 'a/b', imported: 'UI' },
    });
  });

  it('422 when the workspace does not exist (owner)', async () => {
    const res = await p.owner.post('/datasets', { name: 'x', workspace_id: MISSING });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: `Workspace with id \`${MISSING}\` not found` });
  });

  it('authorizes before looking up the workspace', async () => {
    const res = await p.adminOutsider.api.post('/datasets', { name: 'x', workspace_id: MISSING });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('409 on a duplicate name in the workspace', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const res = await p.owner.post('/datasets', { name: dataset.name, workspace_id: p.workspace.id });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Dataset with name \`${dataset.name}\` already exists for workspace with id \`${p.workspace.id}\`` });
  });

  it('same name is fine in another workspace', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const other = await createWorkspace(api);
    const res = await p.owner.post('/datasets', { name: dataset.name, workspace_id: other.id });
    expect(res.status).toBe(201);
  });

  it('422 validation for a missing name, a too long name and min_submitted 0', async () => {
    const missing = await p.owner.post('/datasets', { workspace_id: p.workspace.id });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.params.errors[0]).toMatchObject({ type: 'missing', loc: ['body', 'name'] });
    const long = await p.owner.post('/datasets', { name: 'x'.repeat(201), workspace_id: p.workspace.id });
    expect(long.status).toBe(422);
    const zero = await p.owner.post('/datasets', {
      name: 'zero',
      workspace_id: p.workspace.id,
      distribution: { strategy: 'overlap', min_submitted: 0 },
    });
    expect(zero.status).toBe(422);
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const res = await clientOf(p, who).post('/datasets', { name: uniqueName('ds'), workspace_id: p.workspace.id });
    expect(res.status).toBe(WRITE_MATRIX(201)[who]);
    if (who === 'anonymous') expect(res.body).toEqual(UNAUTHORIZED);
  });
});

describe('GET /me/datasets', () => {
  let mine: { id: string; name: string };
  let elsewhere: { id: string; name: string };
  beforeAll(async () => {
    mine = await createPublishedDataset(api, p.workspace.id);
    elsewhere = await createDataset(api, (await createWorkspace(api)).id);
  });

  it('owner sees every dataset, in creation order, drafts included', async () => {
    const res = await p.owner.get('/me/datasets');
    expect(res.status).toBe(200);
    const ids = res.body.items.map((d: { id: string }) => d.id);
    expect(ids).toContain(mine.id);
    expect(ids).toContain(elsewhere.id);
    const inserted = res.body.items.map((d: { inserted_at: string }) => d.inserted_at);
    expect([...inserted].sort()).toEqual(inserted);
  });

  it('members see only datasets of their workspaces', async () => {
    for (const user of [p.adminMember, p.annotatorMember]) {
      const ids = (await user.api.get('/me/datasets')).body.items.map((d: { id: string }) => d.id);
      expect(ids).toContain(mine.id);
      expect(ids).not.toContain(elsewhere.id);
    }
    expect((await p.annotatorOutsider.api.get('/me/datasets')).body).toEqual({ items: [] });
  });

  it('filters by workspace_id, name and status', async () => {
    const byWorkspace = await p.annotatorMember.api.get(`/me/datasets?workspace_id=${p.workspace.id}`);
    expect(byWorkspace.status).toBe(200);
    expect(byWorkspace.body.items.every((d: { workspace_id: string }) => d.workspace_id === p.workspace.id)).toBe(true);
    const byName = await p.owner.get(`/me/datasets?name=${mine.name}`);
    expect(byName.body.items.map((d: { id: string }) => d.id)).toEqual([mine.id]);
    const drafts = await p.owner.get('/me/datasets?status=draft');
    expect(drafts.body.items.every((d: { status: string }) => d.status === 'draft')).toBe(true);
    expect(drafts.body.items.map((d: { id: string }) => d.id)).toContain(elsewhere.id);
    const ready = await p.owner.get('/me/datasets?status=ready');
    expect(ready.body.items.map((d: { id: string }) => d.id)).toContain(mine.id);
  });

  it('403 with a workspace_id the user is not a member of', async () => {
    const res = await p.annotatorOutsider.api.get(`/me/datasets?workspace_id=${p.workspace.id}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });

  it('422 for a bad status or workspace_id', async () => {
    expect((await p.owner.get('/me/datasets?status=nope')).status).toBe(422);
    expect((await p.owner.get('/me/datasets?workspace_id=nope')).status).toBe(422);
  });

  it('401 without credentials', async () => {
    const res = await p.anonymous.get('/me/datasets');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });
});

describe('GET /datasets/{id}', () => {
  it('404 body for an unknown id, 422 for a malformed one', async () => {
    const res = await p.owner.get(`/datasets/${MISSING}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Dataset with id \`${MISSING}\` not found` });
    const bad = await p.owner.get('/datasets/not-a-uuid');
    expect(bad.status).toBe(422);
    expect(bad.body.detail.params.errors[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'dataset_id'] });
  });

  it('404 comes before 403', async () => {
    expect((await p.annotatorOutsider.api.get(`/datasets/${MISSING}`)).status).toBe(404);
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    expect((await clientOf(p, who).get(`/datasets/${dataset.id}`)).status).toBe(READ_MATRIX[who]);
  });
});

describe('PATCH /datasets/{id}', () => {
  it('updates keys, merges metadata and distribution, sets last_activity_at = updated_at', async () => {
    const dataset = await createDataset(api, p.workspace.id, { guidelines: 'old', metadata: { a: 1, b: 2 } });
    const name = uniqueName('renamed');
    const res = await p.owner.patch(`/datasets/${dataset.id}`, {
      name,
      guidelines: null,
      allow_extra_metadata: false,
      metadata: { b: 3, c: 4 },
      distribution: { strategy: 'overlap', min_submitted: 2 },
      id: dataset.id,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name,
      guidelines: null,
      allow_extra_metadata: false,
      metadata: { a: 1, b: 3, c: 4 },
      distribution: { strategy: 'overlap', min_submitted: 2 },
    });
    expect(res.body.last_activity_at).toBe(res.body.updated_at);
    expect(res.body.updated_at > (dataset.updated_at as string)).toBe(true);
    expect(res.body.inserted_at).toBe(dataset.inserted_at);
    expect((await p.owner.get(`/datasets/${dataset.id}`)).body).toEqual(res.body);
  });

  it('metadata: null clears it; an empty body changes nothing but timestamps', async () => {
    const dataset = await createDataset(api, p.workspace.id, { metadata: { a: 1 } });
    expect((await p.owner.patch(`/datasets/${dataset.id}`, { metadata: null })).body.metadata).toBeNull();
    const res = await p.owner.patch(`/datasets/${dataset.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(dataset.name);
  });

  it('a distribution change recomputes record statuses (even with responses)', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const { db } = server.app.database;
    const recordId = await insertRecord(db, dataset.id);
    const annotator = await createUser(api);
    await insertResponse(db, dataset.id, recordId, annotator.id, 'submitted');
    const status = async () => (await db.selectFrom('records').select('status').where('id', '=', recordId).executeTakeFirstOrThrow()).status;
    expect(await status()).toBe('completed');
    const res = await p.owner.patch(`/datasets/${dataset.id}`, { distribution: { strategy: 'overlap', min_submitted: 2 } });
    expect(res.status).toBe(200);
    expect(await status()).toBe('pending');
    await p.owner.patch(`/datasets/${dataset.id}`, { distribution: { strategy: 'overlap', min_submitted: 1 } });
    expect(await status()).toBe('completed');
  });

  it('422 when name, allow_extra_metadata or distribution is null', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    for (const key of ['name', 'allow_extra_metadata', 'distribution']) {
      const res = await p.owner.patch(`/datasets/${dataset.id}`, { [key]: null });
      expect(res.status, key).toBe(422);
      expect(res.body.detail.code).toBe('argilla.api.errors::ValidationError');
    }
  });

  it('409 when renaming to a name taken in the workspace', async () => {
    const first = await createDataset(api, p.workspace.id);
    const second = await createDataset(api, p.workspace.id);
    const res = await p.owner.patch(`/datasets/${second.id}`, { name: first.name });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Dataset with name \`${first.name}\` already exists for workspace with id \`${p.workspace.id}\`` });
  });

  it('404 for an unknown dataset', async () => {
    const res = await p.owner.patch(`/datasets/${MISSING}`, { name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Dataset with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    expect((await clientOf(p, who).patch(`/datasets/${dataset.id}`, { guidelines: 'g' })).status).toBe(WRITE_MATRIX(200)[who]);
  });
});

describe('DELETE /datasets/{id}', () => {
  it('returns 200 with the dataset and cascades settings, records, their relations and indexes', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    await createField(api, dataset.id, { name: 'text' });
    const question = await createQuestion(api, dataset.id);
    const property = await p.owner.post(`/datasets/${dataset.id}/metadata-properties`, {
      name: 'genre',
      title: 'Genre',
      settings: { type: 'terms' },
    });
    await p.owner.post(`/datasets/${dataset.id}/vectors-settings`, { name: 'v', title: 'V', dimensions: 2 });
    await p.owner.put(`/datasets/${dataset.id}/publish`);
    const { db, textIndexer } = server.app.database;
    const recordId = await insertRecord(db, dataset.id, { genre: 'a' });
    await insertResponse(db, dataset.id, recordId, (await createUser(api)).id, 'submitted');
    const withRelations = { fields: { text: 'words to index' }, suggestions: [{ question_id: question.id, value: 'a suggestion' }], vectors: { v: [0.5, 1] } };
    expect((await p.owner.put(`/datasets/${dataset.id}/records/bulk`, { items: [withRelations] })).status).toBe(200);
    await textIndexer.caughtUp(dataset.id);
    for (const table of ['suggestions', 'vectors'] as const) {
      expect(await db.selectFrom(table).selectAll().where('dataset_id', '=', dataset.id).execute(), table).toHaveLength(1);
    }
    const indexName = `mp_${property.body.id.replace(/-/g, '')}`;
    const ftsName = `fts_${dataset.id.replace(/-/g, '')}`;
    expect(await tableExists(indexName)).toBe(true);
    expect(await tableExists(ftsName)).toBe(true);

    const before = (await p.owner.get(`/datasets/${dataset.id}`)).body;
    const res = await p.owner.delete(`/datasets/${dataset.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
    expect((await p.owner.get(`/datasets/${dataset.id}`)).status).toBe(404);
    const tables = ['fields', 'questions', 'metadata_properties', 'vector_settings', 'records', 'responses', 'suggestions', 'vectors', 'dataset_users'] as const;
    for (const table of tables) {
      const rows = await db.selectFrom(table).selectAll().where('dataset_id', '=', dataset.id).execute();
      expect(rows, table).toHaveLength(0);
    }
    expect(await tableExists(indexName)).toBe(false);
    await textIndexer.caughtUp(dataset.id); // SQLite: the text index file's table goes just after the delete
    expect(await tableExists(ftsName)).toBe(false);
  });

  it('404 for an unknown dataset', async () => {
    const res = await p.owner.delete(`/datasets/${MISSING}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Dataset with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    expect((await clientOf(p, who).delete(`/datasets/${dataset.id}`)).status).toBe(WRITE_MATRIX(200)[who]);
  });
});

describe('PUT /datasets/{id}/publish', () => {
  it('checks fields, then required questions, publishes once and has a text index once records arrive', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const noFields = await p.owner.put(`/datasets/${dataset.id}/publish`);
    expect(noFields.status).toBe(422);
    expect(noFields.body).toEqual({ detail: 'Dataset cannot be published without fields' });

    await createField(api, dataset.id, { name: 'text' });
    await createQuestion(api, dataset.id, { required: false });
    const noRequired = await p.owner.put(`/datasets/${dataset.id}/publish`);
    expect(noRequired.status).toBe(422);
    expect(noRequired.body).toEqual({ detail: 'Dataset cannot be published without required questions' });

    await createQuestion(api, dataset.id, { required: true });
    const res = await p.owner.put(`/datasets/${dataset.id}/publish`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: dataset.id, status: 'ready' });
    expect(res.body.last_activity_at).toBe(res.body.updated_at);
    expect((await p.owner.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 'words to index' } }] })).status).toBe(200);
    await server.app.database.textIndexer.caughtUp(dataset.id);
    expect(await tableExists(`fts_${dataset.id.replace(/-/g, '')}`)).toBe(true);

    const again = await p.owner.put(`/datasets/${dataset.id}/publish`);
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ detail: 'Dataset has already been published' });
  });

  it('404 for an unknown dataset', async () => {
    expect((await p.owner.put(`/datasets/${MISSING}/publish`)).status).toBe(404);
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    await createField(api, dataset.id);
    await createQuestion(api, dataset.id);
    expect((await clientOf(p, who).put(`/datasets/${dataset.id}/publish`)).status).toBe(WRITE_MATRIX(200)[who]);
  });
});

describe('progress and metrics', () => {
  let dataset: { id: string };
  let alice: Awaited<ReturnType<typeof createUser>>;
  let bob: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    dataset = await createPublishedDataset(api, p.workspace.id);
    const { db } = server.app.database;
    alice = await createUser(api, { username: uniqueName('alice') });
    bob = await createUser(api, { username: uniqueName('bob') });
    const [r1, r2, r3] = [await insertRecord(db, dataset.id), await insertRecord(db, dataset.id), await insertRecord(db, dataset.id)];
    await insertResponse(db, dataset.id, r2, bob.id, 'draft');
    await insertResponse(db, dataset.id, r1, alice.id, 'submitted');
    await insertResponse(db, dataset.id, r2, alice.id, 'discarded');
    await insertResponse(db, dataset.id, r3, bob.id, 'submitted');
    await insertResponse(db, dataset.id, r1, bob.id, 'submitted');
  });

  it('GET /progress counts records by status and lists responders in first-response order', async () => {
    const res = await p.owner.get(`/datasets/${dataset.id}/progress`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total: 3, completed: 2, pending: 1, users: [{ username: bob.username }, { username: alice.username }] });
  });

  it('GET /progress of a draft dataset is all zeros', async () => {
    const draft = await createDataset(api, p.workspace.id);
    expect((await p.owner.get(`/datasets/${draft.id}/progress`)).body).toEqual({ total: 0, completed: 0, pending: 0, users: [] });
  });

  it('GET /users/progress splits by record status then response status', async () => {
    const res = await p.owner.get(`/datasets/${dataset.id}/users/progress`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      users: [
        { username: bob.username, completed: { submitted: 2, discarded: 0, draft: 0 }, pending: { submitted: 0, discarded: 0, draft: 1 } },
        { username: alice.username, completed: { submitted: 1, discarded: 0, draft: 0 }, pending: { submitted: 0, discarded: 1, draft: 0 } },
      ],
    });
  });

  it('GET /me/datasets/{id}/metrics counts the caller\'s responses', async () => {
    const res = await alice.api.get(`/me/datasets/${dataset.id}/metrics`);
    // alice is not a member: 403; the owner sees its own (none)
    expect(res.status).toBe(403);
    const owner = await p.owner.get(`/me/datasets/${dataset.id}/metrics`);
    expect(owner.body).toEqual({ responses: { total: 3, submitted: 0, discarded: 0, draft: 0, pending: 3 } });
    const { db } = server.app.database;
    const recordId = await insertRecord(db, dataset.id);
    await insertResponse(db, dataset.id, recordId, p.annotatorMember.id, 'draft');
    const member = await p.annotatorMember.api.get(`/me/datasets/${dataset.id}/metrics`);
    expect(member.body).toEqual({ responses: { total: 4, submitted: 0, discarded: 0, draft: 1, pending: 3 } });
  });

  it('404 on every read for an unknown dataset', async () => {
    for (const path of [`/datasets/${MISSING}/progress`, `/datasets/${MISSING}/users/progress`, `/me/datasets/${MISSING}/metrics`]) {
      const res = await p.owner.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ detail: `Dataset with id \`${MISSING}\` not found` });
    }
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    for (const path of [`/datasets/${dataset.id}/progress`, `/datasets/${dataset.id}/users/progress`, `/me/datasets/${dataset.id}/metrics`]) {
      expect((await clientOf(p, who).get(path)).status, path).toBe(READ_MATRIX[who]);
    }
  });
});
