import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createDataset, createField, createPublishedDataset, createQuestion } from '../../../test/datasets-api-fixtures.js';
import { createPrincipals, uniqueName, validationError, type Principals } from '../../../test/fixtures.js';
import { PRINCIPALS, READ_MATRIX, WRITE_MATRIX, clientOf } from '../../../test/policy-matrix.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';

let server: TestServer;
let api: TestApi;
let p: Principals;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/;
const MISSING = '00000000-0000-4000-8000-000000000000';
const labels = (...values: string[]) => values.map((value) => ({ text: value, value }));
const withDescription = (...values: string[]) => values.map((value) => ({ value, text: value, description: null }));

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  p = await createPrincipals(api);
});
afterAll(() => server.close());

const post = (datasetId: string, settings: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  p.owner.post(`/datasets/${datasetId}/questions`, { name: uniqueName('q'), title: 'Q', settings, ...extra });

describe('POST /datasets/{id}/questions', () => {
  it('round-trips every type with output defaults', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    await createField(api, dataset.id, { name: 'text' });
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ type: 'text' }, { type: 'text', use_markdown: false }],
      [{ type: 'rating', options: [{ value: 1 }, { value: 2 }, { value: 10 }] }, { type: 'rating', options: [{ value: 1 }, { value: 2 }, { value: 10 }] }],
      [{ type: 'label_selection', options: labels('a', 'b') }, { type: 'label_selection', options: withDescription('a', 'b'), visible_options: null }],
      [
        { type: 'label_selection', options: [...labels('a', 'b'), { value: 'c', text: 'C', description: 'the c' }], visible_options: 3 },
        { type: 'label_selection', options: [...withDescription('a', 'b'), { value: 'c', text: 'C', description: 'the c' }], visible_options: 3 },
      ],
      [
        { type: 'multi_label_selection', options: labels('a', 'b', 'c'), visible_options: 3 },
        { type: 'multi_label_selection', options: withDescription('a', 'b', 'c'), visible_options: 3, options_order: 'natural' },
      ],
      [
        { type: 'multi_label_selection', options: labels('a', 'b'), options_order: 'suggestion' },
        { type: 'multi_label_selection', options: withDescription('a', 'b'), visible_options: null, options_order: 'suggestion' },
      ],
      [{ type: 'ranking', options: labels('x', 'y') }, { type: 'ranking', options: withDescription('x', 'y') }],
      [
        { type: 'span', field: 'text', options: labels('PER') },
        {
          type: 'span',
          field: 'text',
          options: withDescription('PER'),
          visible_options: null,
          allow_overlapping: false,
          allow_character_annotation: true,
        },
      ],
    ];
    const created = [];
    for (const [settings, expected] of cases) {
      const name = uniqueName('q');
      const res = await p.owner.post(`/datasets/${dataset.id}/questions`, { name, title: 'Q', settings, id: null, dataset_id: null });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name,
        title: 'Q',
        description: null,
        required: false,
        settings: expected,
        visible_for_annotators: true,
        dataset_id: dataset.id,
        inserted_at: expect.stringMatching(TS),
        updated_at: expect.stringMatching(TS),
      });
      created.push(res.body);
    }
    expect((await p.owner.get(`/datasets/${dataset.id}/questions`)).body).toEqual({ items: created });
  });

  it('keeps description and required', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const res = await post(dataset.id, { type: 'text', use_markdown: true }, { description: 'Why?', required: true });
    expect(res.body).toMatchObject({ description: 'Why?', required: true, settings: { type: 'text', use_markdown: true } });
  });

  it('409 on a duplicate name, checked before the published check', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const existing = (await p.owner.get(`/datasets/${dataset.id}/questions`)).body.items[0];
    const res = await post(dataset.id, { type: 'text' }, { name: existing.name });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Question with name \`${existing.name}\` already exists for dataset with id \`${dataset.id}\`` });
  });

  it('422 on a published dataset', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const res = await post(dataset.id, { type: 'text' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: 'questions cannot be created for a published dataset' });
  });

  it('span: unknown field and field already used', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    await createField(api, dataset.id, { name: 'text' });
    await createField(api, dataset.id, { name: 'other' });
    const unknown = await post(dataset.id, { type: 'span', field: 'nope', options: labels('A') });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ detail: "'nope' is not a valid field name.\nValid field names are ['text', 'other']" });
    const first = await post(dataset.id, { type: 'span', field: 'text', options: labels('A') });
    const reused = await post(dataset.id, { type: 'span', field: 'text', options: labels('A') });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ detail: `'text' is already used by span question with id '${first.body.id}'` });
  });

  it('422 validation for option rules', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const duplicates = await post(dataset.id, { type: 'label_selection', options: labels('a', 'a') });
    expect(duplicates.body).toEqual(
      validationError({
        type: 'value_error',
        loc: ['body', 'settings', 'label_selection'],
        msg: "Value error, Option values must be unique, found duplicates: {'a'}",
      }),
    );
    const tooManyVisible = await post(dataset.id, { type: 'label_selection', options: labels('a', 'b', 'c'), visible_options: 4 });
    expect(tooManyVisible.body).toEqual(
      validationError({
        type: 'value_error',
        loc: ['body', 'settings', 'label_selection'],
        msg: "Value error, the value for 'visible_options' must be less or equal to the number of items in 'options' (3)",
      }),
    );
    const fewVisible = await post(dataset.id, { type: 'label_selection', options: labels('a', 'b'), visible_options: 2 });
    expect(fewVisible.body).toEqual(
      validationError({
        type: 'greater_than_equal',
        loc: ['body', 'settings', 'label_selection', 'visible_options'],
        msg: 'Input should be greater than or equal to 3',
      }),
    );
    const oneLabel = await post(dataset.id, { type: 'label_selection', options: labels('a') });
    expect(oneLabel.body).toEqual(
      validationError({
        type: 'too_short',
        loc: ['body', 'settings', 'label_selection', 'options'],
        msg: 'List should have at least 2 items after validation, not 1',
      }),
    );
    const rating = await post(dataset.id, { type: 'rating', options: [{ value: 1 }, { value: 11 }] });
    expect(rating.body).toEqual(
      validationError({
        type: 'less_than_equal',
        loc: ['body', 'settings', 'rating', 'options', 1, 'value'],
        msg: 'Input should be less than or equal to 10',
      }),
    );
    const ranking = await post(dataset.id, { type: 'ranking', options: labels(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ') });
    expect(ranking.status).toBe(422);
    const emptyValue = await post(dataset.id, { type: 'ranking', options: [{ value: '', text: 'x' }, { value: 'b', text: 'b' }] });
    expect(emptyValue.body.detail.params.errors[0].loc).toEqual(['body', 'settings', 'ranking', 'options', 0, 'value']);
    const badType = await post(dataset.id, { type: 'essay' });
    expect(badType.status).toBe(422);
    const missingSettings = await p.owner.post(`/datasets/${dataset.id}/questions`, { name: 'x', title: 'x' });
    expect(missingSettings.body).toEqual(validationError({ type: 'missing', loc: ['body', 'settings'], msg: 'Field required' }));
  });

  it('404 for an unknown dataset', async () => {
    const res = await post(MISSING, { type: 'text' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Dataset with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const res = await clientOf(p, who).post(`/datasets/${dataset.id}/questions`, { name: 'q', title: 'Q', settings: { type: 'text' } });
    expect(res.status).toBe(WRITE_MATRIX(201)[who]);
  });
});

describe('GET /datasets/{id}/questions', () => {
  it('404 for an unknown dataset', async () => {
    expect((await p.owner.get(`/datasets/${MISSING}/questions`)).status).toBe(404);
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    expect((await clientOf(p, who).get(`/datasets/${dataset.id}/questions`)).status).toBe(READ_MATRIX[who]);
  });
});

describe('PATCH /questions/{id}', () => {
  it('updates title, description (null clears) and text settings, also after publish', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const question = (await p.owner.get(`/datasets/${dataset.id}/questions`)).body.items[0];
    const res = await p.owner.patch(`/questions/${question.id}`, { title: 'New', description: 'D', settings: { type: 'text', use_markdown: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...question,
      title: 'New',
      description: 'D',
      settings: { type: 'text', use_markdown: true },
      updated_at: res.body.updated_at,
    });
    const cleared = await p.owner.patch(`/questions/${question.id}`, { description: null });
    expect(cleared.body.description).toBeNull();
    expect(cleared.body.title).toBe('New');
  });

  it('label options: reorder and re-label, same count and values; visible_options may change or clear', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const question = await createQuestion(api, dataset.id, {
      settings: { type: 'multi_label_selection', options: labels('a', 'b', 'c'), visible_options: 3 },
    });
    const res = await p.owner.patch(`/questions/${question.id}`, {
      settings: {
        type: 'multi_label_selection',
        options: [{ value: 'c', text: 'C!' }, { value: 'a', text: 'A', description: 'first' }, { value: 'b', text: 'b' }],
        visible_options: null,
        options_order: 'suggestion',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({
      type: 'multi_label_selection',
      options: [
        { value: 'c', text: 'C!', description: null },
        { value: 'a', text: 'A', description: 'first' },
        { value: 'b', text: 'b', description: null },
      ],
      visible_options: null,
      options_order: 'suggestion',
    });
    const keep = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'multi_label_selection' } });
    expect(keep.body.settings).toEqual(res.body.settings);
  });

  it('422 on type change, option count, option values, visible_options', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const question = await createQuestion(api, dataset.id, { settings: { type: 'label_selection', options: labels('a', 'b', 'c') } });
    const type = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'text' } });
    expect(type.status).toBe(422);
    expect(type.body).toEqual({ detail: "question type cannot be changed. expected 'label_selection' but got 'text'" });
    const count = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'label_selection', options: labels('a', 'b') } });
    expect(count.body).toEqual({ detail: 'the number of options cannot be modified. expected 3 but got 2' });
    const values = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'label_selection', options: labels('a', 'x', 'y') } });
    expect(values.body).toEqual({ detail: "the option values cannot be modified. found unexpected option values: ['x', 'y']" });
    const visible = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'label_selection', visible_options: 4 } });
    expect(visible.status).toBe(422);
    expect(visible.body).toEqual({ detail: "the value for 'visible_options' must be less or equal to the number of items in 'options' (3)" });
    const small = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'label_selection', visible_options: 2 } });
    expect(small.body.detail.code).toBe('argilla.api.errors::ValidationError');
    const nullSettings = await p.owner.patch(`/questions/${question.id}`, { settings: null });
    expect(nullSettings.status).toBe(422);
  });

  it('rating/ranking settings: only type, options stay', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const question = await createQuestion(api, dataset.id, { settings: { type: 'rating', options: [{ value: 1 }, { value: 2 }] } });
    const res = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'rating', options: [{ value: 5 }] } });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({ type: 'rating', options: [{ value: 1 }, { value: 2 }] });
  });

  it('span: allow_overlapping can be enabled but not disabled (omitted counts as false)', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    await createField(api, dataset.id, { name: 'text' });
    const question = await createQuestion(api, dataset.id, { settings: { type: 'span', field: 'text', options: labels('A', 'B', 'C') } });
    const enable = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'span', allow_overlapping: true, visible_options: 3 } });
    expect(enable.status).toBe(200);
    expect(enable.body.settings).toMatchObject({ allow_overlapping: true, visible_options: 3, allow_character_annotation: true, field: 'text' });
    const message = { detail: "'allow_overlapping' can't be disabled because responses may become inconsistent" };
    const disable = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'span', allow_overlapping: false } });
    expect(disable.status).toBe(422);
    expect(disable.body).toEqual(message);
    const omitted = await p.owner.patch(`/questions/${question.id}`, { settings: { type: 'span' } });
    expect(omitted.body).toEqual(message);
  });

  it('404 for an unknown question', async () => {
    const res = await p.owner.patch(`/questions/${MISSING}`, { title: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Question with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const question = await createQuestion(api, dataset.id);
    expect((await clientOf(p, who).patch(`/questions/${question.id}`, { title: 'x' })).status).toBe(WRITE_MATRIX(200)[who]);
  });
});

describe('visible_for_annotators (Scholia extension)', () => {
  const REQUIRED_VISIBLE = { detail: 'A required question must be visible for annotators.' };
  const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((q) => q.name);

  it('defaults to true on create (omitted or null); false is kept for a non-required question', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const omitted = await post(dataset.id, { type: 'text' });
    expect(omitted.status).toBe(201);
    expect(omitted.body.visible_for_annotators).toBe(true);
    const nulled = await post(dataset.id, { type: 'text' }, { visible_for_annotators: null });
    expect(nulled.body.visible_for_annotators).toBe(true);
    const hidden = await post(dataset.id, { type: 'text' }, { visible_for_annotators: false, required: false });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(201);
    expect(hidden.body.visible_for_annotators).toBe(false);
    const listed = (await p.owner.get(`/datasets/${dataset.id}/questions`)).body.items;
    expect(listed.map((q: { visible_for_annotators: boolean }) => q.visible_for_annotators)).toEqual([true, true, false]);
  });

  it('422 when a required question is created hidden; nothing is stored', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const res = await post(dataset.id, { type: 'text' }, { required: true, visible_for_annotators: false });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(REQUIRED_VISIBLE);
    expect((await p.owner.get(`/datasets/${dataset.id}/questions`)).body).toEqual({ items: [] });
  });

  it('PATCH hides and shows a non-required question; omitted keeps it; null and bad types are refused', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const question = await createQuestion(api, dataset.id, { required: false });
    const hide = await p.owner.patch(`/questions/${question.id}`, { visible_for_annotators: false });
    expect(hide.status).toBe(200);
    expect(hide.body).toEqual({ ...question, visible_for_annotators: false, updated_at: hide.body.updated_at });
    const keep = await p.owner.patch(`/questions/${question.id}`, { title: 'Renamed', unknown_key: 1 });
    expect(keep.body).toMatchObject({ title: 'Renamed', visible_for_annotators: false });
    const nulled = await p.owner.patch(`/questions/${question.id}`, { visible_for_annotators: null });
    expect(nulled.status).toBe(422);
    expect(nulled.body.detail.params.errors[0].loc).toEqual(['body', 'visible_for_annotators']);
    expect((await p.owner.patch(`/questions/${question.id}`, { visible_for_annotators: 'no' })).status).toBe(422);
    const show = await p.owner.patch(`/questions/${question.id}`, { visible_for_annotators: true });
    expect(show.body.visible_for_annotators).toBe(true);
  });

  it('PATCH refuses to hide a required question, also after publish, and changes nothing', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const question = (await p.owner.get(`/datasets/${dataset.id}/questions`)).body.items[0];
    expect(question.required).toBe(true);
    const res = await p.owner.patch(`/questions/${question.id}`, { title: 'Not applied', visible_for_annotators: false });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(REQUIRED_VISIBLE);
    expect((await p.owner.get(`/datasets/${dataset.id}/questions`)).body.items[0]).toEqual(question);
    const visible = await p.owner.patch(`/questions/${question.id}`, { visible_for_annotators: true });
    expect(visible.status).toBe(200);
  });

  it('annotators list only visible questions; owners and admins list all', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const shown = await createQuestion(api, dataset.id, { required: true });
    const hidden = await createQuestion(api, dataset.id, { required: false, visible_for_annotators: false });
    const later = await createQuestion(api, dataset.id, { required: false });
    const all = [shown.name, hidden.name, later.name];
    expect(names(await p.owner.get(`/datasets/${dataset.id}/questions`))).toEqual(all);
    expect(names(await p.adminMember.api.get(`/datasets/${dataset.id}/questions`))).toEqual(all);
    const annotatorView = await p.annotatorMember.api.get(`/datasets/${dataset.id}/questions`);
    expect(annotatorView.status).toBe(200);
    expect(names(annotatorView)).toEqual([shown.name, later.name]);
    // Shown again: the annotator sees it again, in creation order.
    await p.owner.patch(`/questions/${hidden.id}`, { visible_for_annotators: true });
    expect(names(await p.annotatorMember.api.get(`/datasets/${dataset.id}/questions`))).toEqual(all);
  });
});

describe('DELETE /questions/{id}', () => {
  it('deletes from a draft and returns the question', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const question = await createQuestion(api, dataset.id);
    const res = await p.owner.delete(`/questions/${question.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(question);
    expect((await p.owner.get(`/datasets/${dataset.id}/questions`)).body).toEqual({ items: [] });
  });

  it('422 on a published dataset', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const question = (await p.owner.get(`/datasets/${dataset.id}/questions`)).body.items[0];
    const res = await p.owner.delete(`/questions/${question.id}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: 'questions cannot be deleted for a published dataset' });
  });

  it('404 for an unknown question', async () => {
    expect((await p.owner.delete(`/questions/${MISSING}`)).body).toEqual({ detail: `Question with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const question = await createQuestion(api, dataset.id);
    expect((await clientOf(p, who).delete(`/questions/${question.id}`)).status).toBe(WRITE_MATRIX(200)[who]);
  });
});
