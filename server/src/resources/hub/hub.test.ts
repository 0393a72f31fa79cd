import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { startTestServer, OWNER, type TestServer } from '../../../test/test-server.js';
import { TestApi } from '../../../test/api-client.js';
import { startFakeHub, type FakeHub } from '../../../test/fake-hub/fake-hub.js';
import { createHubDataset, createUser, labelSettings } from '../../../test/fake-hub/hub-fixtures.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import { toJson } from '../../storage/json.js';
import { HUB_EXPORT_JOB } from '../../hub/hub-export.js';
import { enqueueJob, SEALED_SECRETS_KEY } from '../../jobs/job-queue.js';
import { sealSecrets } from '../../jobs/job-secrets.js';

let hub: FakeHub;
let server: TestServer;
let api: TestApi;

beforeAll(async () => {
  hub = await startFakeHub();
  server = await startTestServer({ env: { SCHOLIA_HUB_URL: hub.url, SCHOLIA_DATASETS_SERVER_URL: hub.url } });
  api = new TestApi(server.url, { apiKey: OWNER.apiKey });
});
afterAll(async () => {
  await server?.close();
  await hub?.close();
});

const db = () => server.app.database.db;

async function waitForJob(id: string, timeoutMs = 20_000): Promise<{ status: string; error: string | null; result: string | null; payload: string }> {
  const started = Date.now();
  for (;;) {
    const job = await db().selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    if (job.status === 'finished' || job.status === 'failed') return job;
    if (Date.now() - started > timeoutMs) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function records(datasetId: string) {
  const rows = await db().selectFrom('records').selectAll().where('dataset_id', '=', datasetId).orderBy('rid').execute();
  return rows.map((r) => ({ ...r, fields: JSON.parse(r.fields), metadata: r.metadata ? JSON.parse(r.metadata) : null }));
}

async function suggestionsByExternalId(datasetId: string) {
  const rows = await db()
    .selectFrom('suggestions')
    .innerJoin('records', 'records.id', 'suggestions.record_id')
    .innerJoin('questions', 'questions.id', 'suggestions.question_id')
    .select(['records.external_id', 'questions.name', 'suggestions.value'])
    .where('suggestions.dataset_id', '=', datasetId)
    .execute();
  const map = new Map<string, Record<string, unknown>>();
  for (const r of rows) map.set(r.external_id!, { ...map.get(r.external_id!), [r.name]: JSON.parse(r.value) });
  return map;
}

/** Names that would change the path of a Hub request or break the Hub's naming rules. */
const BAD_REPO_NAMES = [
  '../../../admin/x',
  'alice/../../admin',
  '..',
  'alice/x/y',
  'alice/',
  '/x',
  'alice/-x',
  'alice/x-',
  '.alice/x',
  'alice/x.',
  'alice/a--b',
  'alice/a..b',
  'alice/x y',
  'alice/x?y',
  'alice/x#y',
  'alice/%2e%2e',
  'alice\\x',
  `alice/${'x'.repeat(97)}`,
];

describe('POST /datasets/{id}/import', () => {
  it('refuses a repository name the Hub would not accept with 422, before any request to the Hub', async () => {
    const ds = await createHubDataset(db(), { fields: [{ name: 'text', type: 'text' }] });
    const sent = hub.requests.length;
    const jobsBefore = (await db().selectFrom('jobs').select('id').execute()).length;
    for (const name of BAD_REPO_NAMES) {
      const res = await api.post(`/datasets/${ds.id}/import`, {
        name, subset: 'default', split: 'train', mapping: { fields: [{ source: 'text', target: 'text' }] },
      });
      expect(res.status, name).toBe(422);
      expect(res.body.detail, name).toMatch(/is not a valid Hugging Face dataset name/);
    }
    expect(hub.requests.slice(sent)).toEqual([]);
    expect((await db().selectFrom('jobs').select('id').execute()).length).toBe(jobsBefore);
  });

  it('imports text, ClassLabel suggestions, numeric metadata and the id column (10,000-row cap, two parquet files)', async () => {
    const ds = await createHubDataset(db(), {
      fields: [{ name: 'text', type: 'text' }],
      questions: [{ name: 'label', settings: labelSettings(['negative', 'positive', 'neutral']), required: true }],
      metadata: [
        { name: 'n_words', settings: { type: 'integer', min: null, max: null } },
        { name: 'score', settings: { type: 'float', min: null, max: null } },
      ],
    });
    const res = await api.post(`/datasets/${ds.id}/import`, {
      name: 'scholia/sentiment',
      subset: 'default',
      split: 'train',
      mapping: {
        fields: [{ source: 'text', target: 'text' }],
        metadata: [{ source: 'n_words', target: 'n_words' }, { source: 'score', target: 'score' }],
        suggestions: [{ source: 'label', target: 'label' }],
        external_id: 'id',
      },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(String), status: 'queued' });
    const job = await waitForJob(res.body.id);
    expect(job.error).toBeNull();
    expect(job.status).toBe('finished');
    expect(JSON.parse(job.result!)).toMatchObject({ imported: 10_000, source: 'parquet' });

    const rows = await records(ds.id);
    expect(rows).toHaveLength(10_000); // the split has 12,000 rows
    expect(rows[0].external_id).toBe('tr-0');
    expect(rows[9_999].external_id).toBe('tr-9999'); // crosses into the second parquet file (7,000 rows each)
    expect(typeof rows[0].fields.text).toBe('string');
    expect(rows[3].metadata).toEqual({ n_words: 8, score: 0.03 });
    const suggestions = await suggestionsByExternalId(ds.id);
    expect(suggestions.get('tr-0')).toEqual({ label: 'negative' });
    expect(suggestions.get('tr-1')).toEqual({ label: 'positive' });
    expect(suggestions.get('tr-6')).toBeUndefined(); // ClassLabel -1 = no label → no suggestion

    // Re-import updates by external id: no duplicates.
    const again = await api.post(`/datasets/${ds.id}/import`, {
      name: 'scholia/sentiment', subset: 'default', split: 'train',
      mapping: { fields: [{ source: 'text', target: 'text' }], external_id: 'id' },
    });
    expect((await waitForJob(again.body.id)).status).toBe('finished');
    expect(await db().selectFrom('records').select((eb) => eb.fn.countAll().as('n')).where('dataset_id', '=', ds.id).executeTakeFirst()).toEqual({ n: 10_000 });
  });

  it('maps multi-label ClassLabel lists and gives `{split}_{n}` ids when no id column is mapped', async () => {
    const ds = await createHubDataset(db(), {
      fields: [{ name: 'text', type: 'text' }],
      questions: [{ name: 'topics', settings: labelSettings(['news', 'sports', 'politics', 'tech'], 'multi_label_selection') }],
    });
    const res = await api.post(`/datasets/${ds.id}/import`, {
      name: 'scholia/topics', subset: 'default', split: 'train',
      mapping: { fields: [{ source: 'text', target: 'text' }], suggestions: [{ source: 'labels', target: 'topics' }] },
    });
    expect((await waitForJob(res.body.id)).status).toBe('finished');
    const rows = await records(ds.id);
    expect(rows.map((r) => r.external_id).slice(0, 3)).toEqual(['train_0', 'train_1', 'train_2']);
    const suggestions = await suggestionsByExternalId(ds.id);
    expect(suggestions.get('train_0')).toEqual({ topics: ['news', 'sports'] });
    expect(suggestions.get('train_3')).toEqual({ topics: ['tech', 'news'] });
  });

  it('maps chat lists to a chat field and an int column to a rating suggestion', async () => {
    const ds = await createHubDataset(db(), {
      fields: [{ name: 'conversation', type: 'chat' }],
      questions: [{ name: 'quality', settings: { type: 'rating', options: [1, 2, 3, 4, 5].map((value) => ({ value })) } }],
    });
    const res = await api.post(`/datasets/${ds.id}/import`, {
      name: 'scholia/chat', subset: 'conversations', split: 'train',
      mapping: { fields: [{ source: 'messages', target: 'conversation' }], suggestions: [{ source: 'quality', target: 'quality' }] },
    });
    expect((await waitForJob(res.body.id)).status).toBe('finished');
    const rows = await records(ds.id);
    expect(rows).toHaveLength(30);
    expect(rows[1].fields.conversation).toEqual([
      { role: 'user', content: 'question 1' },
      { role: 'assistant', content: 'answer 1' },
    ]);
    expect((await suggestionsByExternalId(ds.id)).get('train_1')).toEqual({ quality: 2 });
  });

  it('turns parquet images into data URLs with the sniffed type', async () => {
    const ds = await createHubDataset(db(), { fields: [{ name: 'image', type: 'image' }, { name: 'caption', type: 'text' }] });
    const res = await api.post(`/datasets/${ds.id}/import`, {
      name: 'scholia/images', subset: 'default', split: 'train',
      mapping: { fields: [{ source: 'image', target: 'image' }, { source: 'caption', target: 'caption' }] },
    });
    expect((await waitForJob(res.body.id)).status).toBe('finished');
    const rows = await records(ds.id);
    expect(rows[0].fields.image).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(rows[1].fields.image).toMatch(/^data:image\/jpeg;base64,/);
    expect(rows[1].fields.caption).toBe('picture 1');
  });

  it('falls back to the viewer /rows pages when there is no parquet export', async () => {
    const ds = await createHubDataset(db(), {
      fields: [{ name: 'text', type: 'text' }],
      questions: [{ name: 'label', settings: labelSettings(['negative', 'positive', 'neutral']) }],
    });
    const res = await api.post(`/datasets/${ds.id}/import`, {
      name: 'scholia/viewer-only', subset: 'default', split: 'train',
      mapping: { fields: [{ source: 'text', target: 'text' }], suggestions: [{ source: 'label', target: 'label' }] },
    });
    const job = await waitForJob(res.body.id);
    expect(JSON.parse(job.result!)).toMatchObject({ imported: 250, source: 'rows' });
    expect((await suggestionsByExternalId(ds.id)).get('train_248')).toEqual({ label: 'neutral' });
  });

  it('keeps the viewer URL of an image when there is no parquet export', async () => {
    const ds = await createHubDataset(db(), { fields: [{ name: 'image', type: 'image' }, { name: 'caption', type: 'text' }] });
    hub.failNext('/parquet', 404, { errorCode: 'ResponseNotFound', error: 'Not found.' });
    const res = await api.post(`/datasets/${ds.id}/import`, {
      name: 'scholia/images', subset: 'default', split: 'train',
      mapping: { fields: [{ source: 'image', target: 'image' }, { source: 'caption', target: 'caption' }] },
    });
    const job = await waitForJob(res.body.id);
    expect(JSON.parse(job.result!)).toMatchObject({ imported: 12, source: 'rows' });
    const rows = await records(ds.id);
    expect(rows[3].fields).toEqual({ image: `${hub.url}/cached-assets/scholia/images/--/abc/--/default/train/3/image/image.png?Expires=1`, caption: 'picture 3' });
    expect(rows[3].external_id).toBe('train_3');
  });

  it('retries a rate-limited viewer call', async () => {
    const ds = await createHubDataset(db(), { fields: [{ name: 'text', type: 'text' }] });
    hub.failNext('/parquet', 429, { count: 2 });
    const res = await api.post(`/datasets/${ds.id}/import`, {
      name: 'scholia/topics', subset: 'default', split: 'train', mapping: { fields: [{ source: 'text', target: 'text' }] },
    });
    expect((await waitForJob(res.body.id)).status).toBe('finished');
    expect(await records(ds.id)).toHaveLength(40);
  });

  it('a failing import leaves no record behind (all-or-nothing) and ends failed', async () => {
    const ds = await createHubDataset(db(), { fields: [{ name: 'text', type: 'text' }] });
    // The second parquet file of the split fails mid-read, after the first 7,000 rows were read.
    hub.failNext('/datasets/scholia/sentiment/resolve/refs%2Fconvert%2Fparquet/default/train/0001.parquet', 500, { count: 50 });
    const res = await api.post(`/datasets/${ds.id}/import`, {
      name: 'scholia/sentiment', subset: 'default', split: 'train', mapping: { fields: [{ source: 'text', target: 'text' }] },
    });
    const job = await waitForJob(res.body.id);
    expect(job.status).toBe('failed');
    expect(await records(ds.id)).toHaveLength(0);
  });

  it('fails the job for an unknown Hub dataset, and for a draft dataset', async () => {
    const ds = await createHubDataset(db(), { fields: [{ name: 'text', type: 'text' }] });
    const unknown = await api.post(`/datasets/${ds.id}/import`, {
      name: 'nobody/nothing', subset: 'default', split: 'train', mapping: { fields: [{ source: 'text', target: 'text' }] },
    });
    const job = await waitForJob(unknown.body.id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/does not exist/);

    const draft = await createHubDataset(db(), { fields: [{ name: 'text', type: 'text' }], status: 'draft' });
    const res = await api.post(`/datasets/${draft.id}/import`, {
      name: 'scholia/topics', subset: 'default', split: 'train', mapping: { fields: [{ source: 'text', target: 'text' }] },
    });
    expect((await waitForJob(res.body.id)).status).toBe('failed');
  });

  it('validates the body, 404s unknown datasets and refuses annotators', async () => {
    const ds = await createHubDataset(db(), { fields: [{ name: 'text', type: 'text' }] });
    const body = { name: 'scholia/topics', subset: 'default', split: 'train', mapping: { fields: [{ source: 'text', target: 'text' }] } };
    const invalid = await api.post(`/datasets/${ds.id}/import`, { ...body, mapping: { fields: [] } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail.code).toBe('argilla.api.errors::ValidationError');
    const missing = await api.post(`/datasets/${newId()}/import`, body);
    expect(missing.status).toBe(404);
    const annotator = await createUser(db(), 'annotator', ds.workspaceId);
    expect((await api.as({ apiKey: annotator.apiKey }).post(`/datasets/${ds.id}/import`, body)).status).toBe(403);
    const outsider = await createUser(db(), 'admin');
    expect((await api.as({ apiKey: outsider.apiKey }).post(`/datasets/${ds.id}/import`, body)).status).toBe(403);
    const member = await createUser(db(), 'admin', ds.workspaceId);
    expect((await api.as({ apiKey: member.apiKey }).post(`/datasets/${ds.id}/import`, body)).status).toBe(202);
  });
});

describe('POST /datasets/{id}/export', () => {
  async function datasetWithAnswers() {
    const ds = await createHubDataset(db(), {
      fields: [{ name: 'text', type: 'text' }, { name: 'chat', type: 'chat', required: false }],
      questions: [
        { name: 'label', settings: labelSettings(['a', 'b']), required: true },
        { name: 'tags', settings: labelSettings(['x', 'y', 'z'], 'multi_label_selection') },
      ],
      metadata: [{ name: 'lang', settings: { type: 'terms', values: null } }, { name: 'n', settings: { type: 'integer', min: null, max: null } }],
      vectors: [{ name: 'emb', dimensions: 2 }],
    });
    const owner = await db().selectFrom('users').select('id').where('username', '=', OWNER.username).executeTakeFirstOrThrow();
    for (let i = 0; i < 3; i += 1) {
      const recordId = newId();
      const now = nowTimestamp();
      await db().insertInto('records').values({
        id: recordId, dataset_id: ds.id, external_id: `r${i}`, status: i === 0 ? 'completed' : 'pending', submitted_count: i === 0 ? 1 : 0,
        fields: toJson({ text: `hello ${i}`, ...(i === 1 ? { chat: [{ role: 'user', content: 'hi' }] } : {}) }),
        metadata: toJson({ lang: 'en', n: i }), inserted_at: now, updated_at: now,
      }).execute();
      if (i === 0) {
        await db().insertInto('responses').values({
          id: newId(), record_id: recordId, dataset_id: ds.id, user_id: owner.id, status: 'submitted',
          values: toJson({ label: { value: 'a' }, tags: { value: ['x', 'z'] } }), inserted_at: now, updated_at: now,
        }).execute();
      }
      if (i === 2) {
        // A draft that answers `label` only: `tags.responses` must not list it (the SDK's from_hub refuses nulls).
        await db().insertInto('responses').values({
          id: newId(), record_id: recordId, dataset_id: ds.id, user_id: owner.id, status: 'draft',
          values: toJson({ label: { value: 'b' } }), inserted_at: now, updated_at: now,
        }).execute();
      }
      await db().insertInto('suggestions').values({
        id: newId(), record_id: recordId, dataset_id: ds.id, question_id: ds.questionIds.label, type: 'model', value: toJson('b'),
        agent: 'bot', score: toJson(0.5), inserted_at: now, updated_at: now,
      }).execute();
    }
    return ds;
  }

  it('writes parquet + .argilla settings + README to a new private repository', async () => {
    const ds = await datasetWithAnswers();
    const res = await api.post(`/datasets/${ds.id}/export`, { name: 'alice/exported', private: true, token: 'hf_write_alice' });
    expect(res.status).toBe(202);
    const jobRow = await db().selectFrom('jobs').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(jobRow.payload).not.toContain('hf_write_alice'); // the token is sealed, never stored in clear
    const job = await waitForJob(res.body.id);
    expect(job.error).toBeNull();
    expect(job.status).toBe('finished');
    expect(job.payload).not.toContain('sealed_secrets'); // erased once the job ended

    const repo = hub.repos.get('alice/exported')!;
    expect(repo.private).toBe(true);
    expect([...repo.files.keys()].sort()).toEqual([
      '.argilla/dataset.json', '.argilla/settings.json', '.argilla/version.json', 'README.md', 'data/train-00000-of-00001.parquet',
    ]);
    expect(repo.commits).toHaveLength(1);
    const settings = JSON.parse(repo.files.get('.argilla/settings.json')!.toString('utf8'));
    expect(settings.fields.map((f: { name: string }) => f.name)).toEqual(['text', 'chat']);
    expect(settings.questions.map((q: { name: string }) => q.name)).toEqual(['label', 'tags']);
    expect(settings.metadata[0]).toMatchObject({ name: 'lang', visible_for_annotators: true });
    expect(settings.vectors[0]).toMatchObject({ name: 'emb', dimensions: 2 });
    expect(settings.distribution).toEqual({ strategy: 'overlap', min_submitted: 1 });
    expect(JSON.parse(repo.files.get('.argilla/dataset.json')!.toString('utf8'))).toMatchObject({ id: ds.id, guidelines: 'Label it well' });
    expect(JSON.parse(repo.files.get('.argilla/version.json')!.toString('utf8'))).toEqual({ argilla: '2.8.0' });
    const readme = repo.files.get('README.md')!.toString('utf8');
    expect(readme).toMatch(/^---\ntags:\n- rlfh\n- argilla\n- human-feedback\n/);
    expect(readme).toContain('path: "data/train-*"');

    const bytes = repo.files.get('data/train-00000-of-00001.parquet')!;
    const file = Uint8Array.from(bytes).buffer as ArrayBuffer;
    const rows = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      id: 'r0', status: 'completed', text: 'hello 0', 'label.responses': ['a'], 'label.responses.status': ['submitted'],
      'tags.responses': [['x', 'z']], 'label.suggestion': 'b', 'label.suggestion.agent': 'bot', 'label.suggestion.score': 0.5,
      'metadata.lang': ['en'], 'metadata.n': 0n,
    });
    expect(rows[1].chat).toEqual([{ role: 'user', content: 'hi' }]);
    expect(rows[1]['label.responses'] ?? null).toBeNull();
    expect(rows[2]['label.responses']).toEqual(['b']);
    expect(rows[2]['label.responses.status']).toEqual(['draft']);
    expect(rows[2]['tags.responses'] ?? null).toBeNull();
    const kv = parquetMetadata(file).key_value_metadata?.find((e) => e.key === 'huggingface');
    expect(JSON.parse(kv!.value!).info.features['tags.responses']).toEqual({
      feature: { feature: { dtype: 'string', _type: 'Value' }, _type: 'Sequence' }, _type: 'Sequence',
    });
  });

  it('an exported repository imports back', async () => {
    const ds = await datasetWithAnswers();
    const res = await api.post(`/datasets/${ds.id}/export`, { name: 'alice/roundtrip', subset: 'default', split: 'train', token: 'hf_write_alice' });
    expect((await waitForJob(res.body.id)).status).toBe('finished');
    expect(hub.repos.get('alice/roundtrip')!.private).toBe(false);
    // Second export to the same repository: exists already, new commit.
    const again = await api.post(`/datasets/${ds.id}/export`, { name: 'alice/roundtrip', token: 'hf_write_alice' });
    expect((await waitForJob(again.body.id)).status).toBe('finished');
    expect(hub.repos.get('alice/roundtrip')!.commits).toHaveLength(2);
  });

  it('ends failed with "Invalid Hugging Face token" when the Hub refuses the token', async () => {
    const ds = await datasetWithAnswers();
    const res = await api.post(`/datasets/${ds.id}/export`, { name: 'alice/nope', token: 'hf_not_a_real_token' });
    const job = await waitForJob(res.body.id);
    expect(job.status).toBe('failed');
    expect(job.error).toBe('Invalid Hugging Face token');
    expect(job.payload).not.toContain('hf_not_a_real_token');
    const readOnly = await api.post(`/datasets/${ds.id}/export`, { name: 'bob/nope', token: 'hf_read_bob' });
    expect((await waitForJob(readOnly.body.id)).error).toMatch(/cannot write/);
  });

  it('refuses a bad repository name, subset or split with 422, before any request to the Hub', async () => {
    const ds = await datasetWithAnswers();
    const sent = hub.requests.length;
    const refused = [
      ...BAD_REPO_NAMES.map((name) => ({ name, token: 'hf_write_alice' })),
      { name: 'alice/ok', subset: '../../x', token: 'hf_write_alice' },
      { name: 'alice/ok', split: '..', token: 'hf_write_alice' },
      { name: 'alice/ok', split: 'a\\b', token: 'hf_write_alice' },
    ];
    for (const body of refused) {
      const res = await api.post(`/datasets/${ds.id}/export`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(typeof res.body.detail).toBe('string');
    }
    expect(hub.requests.slice(sent)).toEqual([]);

    const ok = await api.post(`/datasets/${ds.id}/export`, { name: 'alice/Ok_name-1.v2', token: 'hf_write_alice' });
    expect(ok.status).toBe(202);
    expect((await waitForJob(ok.body.id)).status).toBe('finished');
    expect(hub.repos.has('alice/Ok_name-1.v2')).toBe(true);
  });

  it('a queued export whose stored name is bad fails without sending the token anywhere', async () => {
    const ds = await datasetWithAnswers();
    const sent = hub.requests.length;
    const job = await enqueueJob(db(), HUB_EXPORT_JOB, {
      dataset_id: ds.id, name: '../../../admin/x', subset: 'default', split: 'train', private: false,
      [SEALED_SECRETS_KEY]: sealSecrets(server.app.config, { token: 'hf_write_alice' }),
    });
    const done = await waitForJob(job.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/is not a valid Hugging Face dataset name/);
    expect(hub.requests.slice(sent)).toEqual([]);
  });

  it('422 when the dataset has no records; body validation', async () => {
    const ds = await createHubDataset(db(), { fields: [{ name: 'text', type: 'text' }] });
    const res = await api.post(`/datasets/${ds.id}/export`, { name: 'alice/empty', token: 'hf_write_alice' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: `Dataset with id \`${ds.id}\` has no records to export` });
    const noToken = await api.post(`/datasets/${ds.id}/export`, { name: 'alice/empty' });
    expect(noToken.status).toBe(422);
    expect(noToken.body.detail.params.errors[0].loc).toEqual(['body', 'token']);
  });
});
