import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset, type SeededDataset } from '../../../test/dataset-fixtures.js';
import { createPrincipals, createUser, FORBIDDEN, UNAUTHORIZED, validationError, type Principals, type TestUser } from '../../../test/fixtures.js';
import { clientOf, PRINCIPALS, WRITE_MATRIX } from '../../../test/policy-matrix.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { textIndexRids } from '../../../test/storage-probes.js';
import { deleteDataset as deleteDatasetRow } from '../../storage/repositories/datasets.repository.js';

const onPostgres = (process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres');

let server: TestServer;
let api: TestApi;
let principals: Principals;
let dataset: SeededDataset;
let annotator2: TestUser;

const METADATA = [
  { name: 'split', settings: { type: 'terms', values: ['train', 'test'] } },
  { name: 'length', settings: { type: 'integer', min: 0, max: 1000 } },
  { name: 'score', settings: { type: 'float', min: 0, max: 1 } },
];

async function newDataset(options: { status?: 'draft' | 'ready'; minSubmitted?: number; allowExtraMetadata?: boolean } = {}) {
  return seedDataset(server.app.database.db, server.app.database.dialect, {
    workspaceId: principals.workspace.id,
    metadata: METADATA,
    vectors: [{ name: 'emb', dimensions: 3 }],
    ...options,
  });
}

const countRecords = async (datasetId: string) =>
  Number(
    (
      await server.app.database.db
        .selectFrom('records')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('dataset_id', '=', datasetId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const ftsMatches = (datasetId: string, term: string) => textIndexRids(server.app.database, datasetId, term);

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url).as({ apiKey: 'owner.apikey' });
  principals = await createPrincipals(api);
  annotator2 = await createUser(api, { role: 'annotator' });
  dataset = await newDataset();
});
afterAll(() => server.close());

describe('PUT /datasets/{id}/records/bulk', () => {
  it('creates records with suggestions, vectors and responses and returns full records', async () => {
    const res = await api.put(`/datasets/${dataset.id}/records/bulk`, {
      items: [
        {
          external_id: 'r-1',
          fields: { text: 'Hello brave world', context: 'greeting' },
          metadata: { split: 'train', length: 17, score: 0.5 },
          suggestions: [{ question_id: dataset.questionIds.label, value: 'positive', agent: 'model-1', score: 0.9, type: 'model' }],
          vectors: { emb: [0.1, 0.2, 0.3] },
          responses: [{ user_id: principals.annotatorMember.id, status: 'submitted', values: { label: { value: 'negative' } } }],
          status: 'pending',
          inserted_at: null,
        },
        { external_id: 'r-2', fields: { text: 'Second record' } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.updated_item_ids).toEqual([]);
    expect(res.body.items).toHaveLength(2);
    const [first, second] = res.body.items;
    expect(first).toMatchObject({
      status: 'completed',
      fields: { text: 'Hello brave world', context: 'greeting' },
      metadata: { split: 'train', length: 17, score: 0.5 },
      external_id: 'r-1',
      dataset_id: dataset.id,
      vectors: { emb: [0.1, 0.2, 0.3] },
    });
    expect(first.suggestions).toEqual([
      expect.objectContaining({ question_id: dataset.questionIds.label, value: 'positive', agent: 'model-1', score: 0.9, type: 'model' }),
    ]);
    expect(first.responses).toEqual([
      expect.objectContaining({ user_id: principals.annotatorMember.id, status: 'submitted', values: { label: { value: 'negative' } }, record_id: first.id }),
    ]);
    expect(Object.keys(second)).toEqual(
      expect.arrayContaining(['id', 'status', 'fields', 'metadata', 'external_id', 'responses', 'suggestions', 'vectors', 'dataset_id', 'inserted_at', 'updated_at']),
    );
    expect(second).toMatchObject({ status: 'pending', metadata: null, responses: [], suggestions: [], vectors: {} });
    expect(await ftsMatches(dataset.id, 'brave')).toHaveLength(1);
  });

  it('upserts by external_id: only present keys change, relations upsert per key', async () => {
    const created = await api.put(`/datasets/${dataset.id}/records/bulk`, {
      items: [
        {
          external_id: 'up-1',
          fields: { text: 'original text' },
          metadata: { split: 'train' },
          suggestions: [
            { question_id: dataset.questionIds.label, value: 'positive' },
            { question_id: dataset.questionIds.comment, value: 'keep me' },
          ],
        },
      ],
    });
    const record = created.body.items[0];
    const labelSuggestionId = record.suggestions.find((s: any) => s.question_id === dataset.questionIds.label).id;
    const res = await api.put(`/datasets/${dataset.id}/records/bulk`, {
      items: [
        {
          external_id: 'up-1',
          metadata: { split: 'test' },
          suggestions: [{ question_id: dataset.questionIds.label, value: 'negative' }],
          vectors: { emb: [1, 2, 3] },
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.updated_item_ids).toEqual([record.id]);
    const updated = res.body.items[0];
    expect(updated.id).toBe(record.id);
    expect(updated.fields).toEqual({ text: 'original text' });
    expect(updated.metadata).toEqual({ split: 'test' });
    expect(updated.inserted_at).toBe(record.inserted_at);
    expect(updated.suggestions).toHaveLength(2);
    const label = updated.suggestions.find((s: any) => s.question_id === dataset.questionIds.label);
    expect(label).toMatchObject({ id: labelSuggestionId, value: 'negative' });
    expect(updated.suggestions.find((s: any) => s.question_id === dataset.questionIds.comment).value).toBe('keep me');
    expect(updated.vectors).toEqual({ emb: [1, 2, 3] });

    const refields = await api.put(`/datasets/${dataset.id}/records/bulk`, {
      items: [{ external_id: 'up-1', fields: { text: 'replaced wording' } }],
    });
    expect(refields.body.items[0].fields).toEqual({ text: 'replaced wording' });
    expect(refields.body.items[0].metadata).toEqual({ split: 'test' });
    expect(await ftsMatches(dataset.id, 'original')).toHaveLength(0);
    expect(await ftsMatches(dataset.id, 'replaced')).toHaveLength(1);
  });

  it('writes a batch of new and existing records with the suggestions, vectors and words of each', async () => {
    const label = dataset.questionIds.label;
    const first = await api.put(`/datasets/${dataset.id}/records/bulk`, {
      items: [{ external_id: 'mix-old', fields: { text: 'mixold words' }, suggestions: [{ question_id: label, value: 'positive' }] }],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const res = await api.put(`/datasets/${dataset.id}/records/bulk`, {
      items: [
        { external_id: 'mix-old', fields: { text: 'mixold rewritten' }, suggestions: [{ question_id: label, value: 'negative' }], vectors: { emb: [1, 0, 0] } },
        { external_id: 'mix-new', fields: { text: 'mixnew words' }, suggestions: [{ question_id: label, value: 'neutral' }], vectors: { emb: [0, 1, 0] } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.updated_item_ids).toEqual([first.body.items[0].id]);
    for (const [externalId, value, vector] of [['mix-old', 'negative', [1, 0, 0]], ['mix-new', 'neutral', [0, 1, 0]]] as const) {
      const item = res.body.items.find((candidate: { external_id: string }) => candidate.external_id === externalId);
      const read = await api.get(`/records/${item.id}?include=suggestions,vectors`);
      expect(read.body.suggestions.map((s: { value: string }) => s.value)).toEqual([value]);
      expect(read.body.vectors).toEqual({ emb: vector });
    }
    expect(await ftsMatches(dataset.id, 'mixnew')).toHaveLength(1);
    expect(await ftsMatches(dataset.id, 'rewritten')).toHaveLength(1);
    expect(await ftsMatches(dataset.id, 'mixold')).toHaveLength(1);
  });

  it('matches by id when external_id does not match, and never reuses an unknown id', async () => {
    const created = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 'by id' } }] });
    const id = created.body.items[0].id;
    const res = await api.put(`/datasets/${dataset.id}/records/bulk`, {
      items: [
        { id, metadata: { length: 5 } },
        { id: randomUUID(), fields: { text: 'fresh' } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.updated_item_ids).toEqual([id]);
    expect(res.body.items[0]).toMatchObject({ id, fields: { text: 'by id' }, metadata: { length: 5 } });
    expect(res.body.items[1].id).not.toBe(id);
  });

  it('upserts embedded responses per user and recomputes status (min_submitted=2)', async () => {
    const ds = await newDataset({ minSubmitted: 2 });
    const submit = (userId: string) => ({ user_id: userId, status: 'submitted', values: { label: { value: 'positive' } } });
    const one = await api.put(`/datasets/${ds.id}/records/bulk`, {
      items: [{ external_id: 'x', fields: { text: 't' }, responses: [submit(principals.annotatorMember.id)] }],
    });
    expect(one.body.items[0].status).toBe('pending');
    const two = await api.put(`/datasets/${ds.id}/records/bulk`, { items: [{ external_id: 'x', responses: [submit(annotator2.id)] }] });
    expect(two.body.items[0].status).toBe('completed');
    expect(two.body.items[0].responses).toHaveLength(2);
    const back = await api.put(`/datasets/${ds.id}/records/bulk`, {
      items: [{ external_id: 'x', responses: [{ user_id: annotator2.id, status: 'draft', values: {} }] }],
    });
    expect(back.body.items[0].status).toBe('pending');
    expect(back.body.items[0].responses).toHaveLength(2);
    const users = await server.app.database.db.selectFrom('dataset_users').select('user_id').where('dataset_id', '=', ds.id).orderBy('inserted_at').execute();
    expect(users.map((u) => u.user_id)).toEqual([principals.annotatorMember.id, annotator2.id]);
  });

  it('is all or nothing: a bad record at position 3 leaves nothing written', async () => {
    const ds = await newDataset();
    const items = [0, 1, 2, 3, 4].map((i) => ({ external_id: `aon-${i}`, fields: i === 3 ? { text: 'x', nope: 'x' } : { text: `record ${i}` } }));
    const res = await api.put(`/datasets/${ds.id}/records/bulk`, { items });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: "Record at position 3 is not valid because found fields values for non configured fields: ['nope']" });
    expect(await countRecords(ds.id)).toBe(0);
    expect(await ftsMatches(ds.id, 'record')).toHaveLength(0);
  });

  it('rolls back every relation when a late statement fails', async () => {
    const ds = await newDataset();
    const ghost = randomUUID();
    const res = await api.put(`/datasets/${ds.id}/records/bulk`, {
      items: [
        { external_id: 'ok', fields: { text: 'fine' }, suggestions: [{ question_id: ds.questionIds.label, value: 'positive' }] },
        { external_id: 'bad', fields: { text: 'x' }, responses: [{ user_id: ghost, status: 'discarded' }] },
      ],
    });
    expect(res.body).toEqual({ detail: `Record at position 1 is not valid because record does not have valid responses: user with id ${ghost} not found` });
    expect(await countRecords(ds.id)).toBe(0);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['empty fields', { fields: {} }, 'fields cannot be empty'],
    ['missing fields', {}, 'fields cannot be empty'],
    ['missing required field', { fields: { context: 'c' } }, "missing required value for field: 'text'"],
    ['null required field', { fields: { text: null } }, "missing required value for field: 'text'"],
    ['text not a string', { fields: { text: { a: 1 } } }, "text field 'text' value must be a string"],
    ['unknown term', { fields: { text: 't' }, metadata: { split: 'dev' } }, "metadata is not valid: 'split' metadata property validation failed because 'dev' is not an allowed term."],
    ['integer metadata', { fields: { text: 't' }, metadata: { length: 2.5 } }, "metadata is not valid: 'length' metadata property validation failed because '2.5' is not an integer."],
    ['integer range', { fields: { text: 't' }, metadata: { length: 5000 } }, "metadata is not valid: 'length' metadata property validation failed because '5000' is greater than the maximum value of '1000'."],
    ['float range', { fields: { text: 't' }, metadata: { score: -1 } }, "metadata is not valid: 'score' metadata property validation failed because '-1' is less than the minimum value of '0'."],
    ['vector dimensions', { fields: { text: 't' }, vectors: { emb: [1, 2] } }, 'record does not have valid vectors: vector value for vector name=emb must have 3 elements, got 2 elements'],
    ['label suggestion', { fields: { text: 't' }, suggestions: [{ question_id: 'Q_LABEL', value: 'bad' }] }, "record does not have valid suggestions: 'bad' is not a valid label for label selection question.\nValid labels are: ['positive', 'negative', 'neutral']"],
    ['duplicate suggestions', { fields: { text: 't' }, suggestions: [{ question_id: 'Q_LABEL', value: 'positive' }, { question_id: 'Q_LABEL', value: 'negative' }] }, 'record does not have valid suggestions: found duplicate suggestions question IDs'],
    ['score cardinality', { fields: { text: 't' }, suggestions: [{ question_id: 'Q_LABEL', value: 'positive', score: [0.5] }] }, 'record does not have valid suggestions: a list of score values is not allowed for a suggestion with a single value'],
    ['response values', { fields: { text: 't' }, responses: [{ user_id: 'ANNOTATOR', status: 'submitted', values: { comment: { value: 'x' } } }] }, "record does not have valid responses: missing response value for required question with name='label'"],
  ];
  it.each(invalid)('refuses %s with the contract message', async (_name, item, reason) => {
    const json = JSON.stringify(item).replaceAll('Q_LABEL', dataset.questionIds.label).replaceAll('ANNOTATOR', principals.annotatorMember.id);
    const res = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 'ok' } }, JSON.parse(json)] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: `Record at position 1 is not valid because ${reason}` });
  });

  it('refuses unknown vectors and unknown suggestion questions', async () => {
    const q = randomUUID();
    const a = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 't' }, vectors: { nope: [1] } }] });
    expect(a.body).toEqual({
      detail: `Record at position 0 is not valid because record does not have valid vectors: vector with name=nope does not exist for dataset_id=${dataset.id}`,
    });
    const b = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 't' }, suggestions: [{ question_id: q, value: 'x' }] }] });
    expect(b.body).toEqual({ detail: `Record at position 0 is not valid because record does not have valid suggestions: question id=${q} does not exists` });
  });

  it('refuses extra metadata when the dataset does not allow it', async () => {
    const ds = await newDataset({ allowExtraMetadata: false });
    const res = await api.put(`/datasets/${ds.id}/records/bulk`, { items: [{ fields: { text: 't' }, metadata: { other: 1 } }] });
    expect(res.body).toEqual({
      detail: `Record at position 0 is not valid because metadata is not valid: 'other' metadata property does not exists for dataset '${ds.id}' and extra metadata is not allowed for this dataset`,
    });
  });

  it('gives validation shapes for duplicate external ids, duplicate response users and item limits', async () => {
    const dup = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ external_id: 'd', fields: { text: 'a' } }, { external_id: 'd', fields: { text: 'b' } }] });
    expect(dup.status).toBe(422);
    expect(dup.body).toEqual(validationError({ type: 'value_error', loc: ['body', 'items'], msg: 'Value error, External IDs must be unique' }));
    const user = principals.annotatorMember.id;
    const twice = await api.put(`/datasets/${dataset.id}/records/bulk`, {
      items: [{ fields: { text: 'a' }, responses: [{ user_id: user, status: 'discarded' }, { user_id: user, status: 'discarded' }] }],
    });
    expect(twice.body).toEqual(
      validationError({ type: 'value_error', loc: ['body', 'items', 0, 'responses'], msg: `Value error, 'responses' contains several responses for the same user_id='${user}'` }),
    );
    const tooMany = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: Array.from({ length: 501 }, () => ({ fields: { text: 'a' } })) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail.params.errors[0]).toMatchObject({ type: 'too_long', loc: ['body', 'items'] });
    const empty = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [] });
    expect(empty.body.detail.params.errors[0]).toMatchObject({ type: 'too_short', loc: ['body', 'items'] });
  });

  it('refuses draft datasets and unknown datasets', async () => {
    const draft = await newDataset({ status: 'draft' });
    const res = await api.put(`/datasets/${draft.id}/records/bulk`, { items: [{ fields: { text: 't' } }] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: 'records cannot be created for a non published dataset' });
    const missing = randomUUID();
    const nf = await api.put(`/datasets/${missing}/records/bulk`, { items: [{ fields: { text: 't' } }] });
    expect(nf.status).toBe(404);
    expect(nf.body).toEqual({ detail: `Dataset with id \`${missing}\` not found` });
    const bad = await api.put('/datasets/not-a-uuid/records/bulk', { items: [{ fields: { text: 't' } }] });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.params.errors[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'dataset_id'] });
  });

  it.each(PRINCIPALS)('authorization: %s', async (name) => {
    const res = await clientOf(principals, name).put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: `auth ${name}` } }] });
    expect(res.status).toBe(WRITE_MATRIX(200)[name]);
    if (res.status === 403) expect(res.body).toEqual(FORBIDDEN);
    if (res.status === 401) expect(res.body).toEqual(UNAUTHORIZED);
  });
});

describe.runIf(onPostgres)('records and their dataset on PostgreSQL', () => {
  it('have no foreign key: a write holds the dataset, so one deleted meanwhile is a 404 and leaves no record', async () => {
    const { db } = server.app.database;
    const { rows } = await sql<{ name: string }>`SELECT conname AS name FROM pg_constraint WHERE contype = 'f' AND conrelid = 'records'::regclass`.execute(db);
    expect(rows.map((row) => row.name)).toEqual([]);
    const doomed = await newDataset();
    let write: Promise<{ status: number; body: unknown }> | undefined;
    await db.transaction().execute(async (trx) => {
      await deleteDatasetRow(trx, doomed.id);
      write = api.put(`/datasets/${doomed.id}/records/bulk`, { items: [{ fields: { text: 'written while the dataset goes' } }] });
      const settled = await Promise.race([write.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 500))]);
      expect(settled).toBe('waiting');
    });
    const res = await write!;
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(res.body).toEqual({ detail: `Dataset with id \`${doomed.id}\` not found` });
    expect(await countRecords(doomed.id)).toBe(0);
  });
});

describe('POST /datasets/{id}/records/bulk', () => {
  it('creates records (201) and refuses external ids that exist', async () => {
    const ds = await newDataset();
    const res = await api.post(`/datasets/${ds.id}/records/bulk`, { items: [{ external_id: 'p1', fields: { text: 'one' } }, { external_id: 2, fields: { text: 'two' } }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.items.map((r: any) => r.external_id)).toEqual(['p1', '2']);
    expect(res.body.items[0]).toMatchObject({ responses: [], suggestions: [], vectors: {} });
    const again = await api.post(`/datasets/${ds.id}/records/bulk`, { items: [{ external_id: 'p1', fields: { text: 'x' } }, { external_id: '2', fields: { text: 'y' } }] });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ detail: 'found records with same external ids: p1, 2' });
  });

  it('prefixes invalid records with their position', async () => {
    const res = await api.post(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 'a' } }, { fields: {} }] });
    expect(res.body).toEqual({ detail: 'Record at position 1 is not valid because fields cannot be empty' });
  });
});

describe('DELETE /datasets/{id}/records', () => {
  it('deletes the listed records (204), ignores unknown ids and cleans the text index', async () => {
    const ds = await newDataset();
    const created = await api.put(`/datasets/${ds.id}/records/bulk`, { items: [{ fields: { text: 'gone soon' } }, { fields: { text: 'stays here' } }] });
    const [a, b] = created.body.items;
    const res = await api.delete(`/datasets/${ds.id}/records?ids=${a.id},${randomUUID()}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await countRecords(ds.id)).toBe(1);
    expect(await ftsMatches(ds.id, 'gone')).toHaveLength(0);
    expect(await ftsMatches(ds.id, 'stays')).toHaveLength(1);
    expect(b.id).toBeTruthy();
  });

  it('answers the contract errors', async () => {
    const base = `/datasets/${dataset.id}/records`;
    expect((await api.delete(`${base}?ids=`)).body).toEqual({ detail: 'No record IDs provided' });
    const ids = Array.from({ length: 101 }, () => randomUUID()).join(',');
    expect((await api.delete(`${base}?ids=${ids}`)).body).toEqual({ detail: 'Cannot delete more than 100 records at once' });
    const bad = await api.delete(`${base}?ids=abc`);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ detail: 'Invalid UUID format' });
  });

  it.each(PRINCIPALS)('authorization: %s', async (name) => {
    const res = await clientOf(principals, name).delete(`/datasets/${dataset.id}/records?ids=${randomUUID()}`);
    expect(res.status).toBe(WRITE_MATRIX(204)[name]);
  });
});

describe('PATCH /records/{id}', () => {
  it('replaces metadata and suggestions, upserts vectors, returns relations', async () => {
    const created = await api.put(`/datasets/${dataset.id}/records/bulk`, {
      items: [{ fields: { text: 'patch me' }, metadata: { split: 'train' }, suggestions: [{ question_id: dataset.questionIds.comment, value: 'old' }] }],
    });
    const id = created.body.items[0].id;
    const res = await api.patch(`/records/${id}`, {
      metadata: { length: 3 },
      suggestions: [{ question_id: dataset.questionIds.label, value: 'neutral' }],
      vectors: { emb: [0, 0, 1] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id, metadata: { length: 3 }, fields: { text: 'patch me' }, vectors: { emb: [0, 0, 1] }, responses: [] });
    expect(res.body.suggestions).toEqual([expect.objectContaining({ question_id: dataset.questionIds.label, value: 'neutral' })]);
    expect(res.body.updated_at > created.body.items[0].updated_at).toBe(true);
    const bad = await api.patch(`/records/${id}`, { metadata: { split: 'x' } });
    expect(bad.body).toEqual({ detail: "metadata is not valid: 'split' metadata property validation failed because 'x' is not an allowed term." });
  });

  it('404s unknown records', async () => {
    const id = randomUUID();
    const res = await api.patch(`/records/${id}`, {});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Record with id \`${id}\` not found` });
  });

  it.each(PRINCIPALS)('authorization: %s', async (name) => {
    const created = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 'auth patch' } }] });
    const res = await clientOf(principals, name).patch(`/records/${created.body.items[0].id}`, { metadata: null });
    expect(res.status).toBe(WRITE_MATRIX(200)[name]);
  });
});

describe('DELETE /records/{id}', () => {
  it('returns the record without relationship keys', async () => {
    const created = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 'delete single' } }] });
    const record = created.body.items[0];
    const res = await api.delete(`/records/${record.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: record.id,
      status: 'pending',
      fields: { text: 'delete single' },
      metadata: null,
      external_id: null,
      dataset_id: dataset.id,
      inserted_at: record.inserted_at,
      updated_at: record.updated_at,
    });
    expect((await api.delete(`/records/${record.id}`)).status).toBe(404);
    expect(await ftsMatches(dataset.id, 'single')).toHaveLength(0);
  });

  it.each(PRINCIPALS)('authorization: %s', async (name) => {
    const created = await api.put(`/datasets/${dataset.id}/records/bulk`, { items: [{ fields: { text: 'auth delete' } }] });
    const res = await clientOf(principals, name).delete(`/records/${created.body.items[0].id}`);
    expect(res.status).toBe(WRITE_MATRIX(200)[name]);
  });
});
