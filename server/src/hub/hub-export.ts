import { createRepo, uploadFiles, whoAmI, HubApiError } from '@huggingface/hub';
import { UnprocessableError } from '../errors.js';
import type { JobContext } from '../jobs/job-worker.js';
import { presentTimestamp } from '../lib/time.js';
import { fromJson, fromNullableJson } from '../storage/json.js';
import {
  listFields,
  listMetadataProperties,
  listQuestions,
  listVectorSettings,
} from '../storage/repositories/dataset-settings.repository.js';
import { presentVector } from '../storage/vector-codec.js';
import type { DatasetRow, FieldRow, QuestionRow, Tables } from '../storage/tables.js';
import type { Kysely } from 'kysely';
import { getDatasetOrThrow } from '../resources/datasets/dataset-lookup.js';
import { presentDataset } from '../resources/datasets/dataset.presenter.js';
import { presentField } from '../resources/fields/field.presenter.js';
import { presentQuestion } from '../resources/questions/question.presenter.js';
import { presentMetadataProperty } from '../resources/metadata-properties/metadata-property.presenter.js';
import { presentVectorSettings } from '../resources/vectors-settings/vector-settings.presenter.js';
import { hubUrl as hubPageUrl } from './hub-http.js';
import { assertHubPathSegment, assertHubRepoId } from './hub-repo-id.js';
import { T, writeExportParquet, type ColumnType, type ExportColumn } from './hub-parquet-writer.js';
import { validatedAnswerColumns } from './validated-answers.js';

export const HUB_EXPORT_JOB = 'hub-export';

/** Message of an export refused by the Hub for its token (product spec §5). */
export const INVALID_HF_TOKEN = 'Invalid Hugging Face token';

/** Stored job payload (the token travels sealed beside it, see job-secrets.ts). */
export interface HubExportPayload {
  dataset_id: string;
  name: string;
  subset: string;
  split: string;
  private: boolean;
}

/** Argilla version the `.argilla/version.json` file names (what the SDK's from_hub checks). */
const ARGILLA_VERSION = '2.8.0';

export interface HubExportFile {
  path: string;
  content: Uint8Array;
}

/**
 * The `hub-export` job (hub-contract §3): creates the dataset repository if needed (private when
 * asked), then uploads the records as parquet plus `.argilla/*` and a README in ONE commit.
 */
export async function runHubExportJob({ payload, secrets, database, config, signal }: JobContext): Promise<{ url: string; records: number }> {
  const request = payload as unknown as HubExportPayload;
  const accessToken = secrets.token;
  if (!accessToken) throw new UnprocessableError('Hugging Face token is required');
  assertHubExportNames(request);
  const { files, records } = await buildHubExportFiles(database.db, request);
  signal.throwIfAborted();

  const hubUrl = config.hubUrl;
  try {
    if (!accessToken.startsWith('hf_')) throw new HubApiError('', 401, undefined, 'token must start with hf_');
    let repoName = request.name;
    if (!repoName.includes('/')) repoName = `${(await whoAmI({ accessToken, hubUrl })).name}/${repoName}`;
    // The account name comes from the Hub, yet it too ends up in request paths.
    assertHubRepoId(repoName);
    const repo = { type: 'dataset' as const, name: repoName };
    try {
      await createRepo({ repo, accessToken, hubUrl, visibility: request.private ? 'private' : 'public' });
    } catch (error) {
      if (!(error instanceof HubApiError && error.statusCode === 409)) throw error; // exists: fine (exist_ok)
    }
    await uploadFiles({
      repo,
      accessToken,
      hubUrl,
      abortSignal: signal,
      commitTitle: 'Export from Scholia (Argilla v2 compatible)',
      files: files.map((f) => ({ path: f.path, content: new Blob([f.content]) })),
    });
    return { url: hubPageUrl(hubUrl, ['datasets', ...repoName.split('/')]), records };
  } catch (error) {
    throw translateHubError(error);
  }
}

/**
 * 422 unless the repository name, subset and split are safe to put in Hub request paths and
 * repository file paths. Checked when the export is asked for and again when its job runs.
 */
export function assertHubExportNames(request: Pick<HubExportPayload, 'name' | 'subset' | 'split'>): void {
  assertHubRepoId(request.name);
  assertHubPathSegment(request.subset, 'subset');
  assertHubPathSegment(request.split, 'split');
}

/** Hub refusals as job errors the user understands; never echoes the token. */
function translateHubError(error: unknown): Error {
  if (error instanceof HubApiError) {
    if (error.statusCode === 401) return new Error(INVALID_HF_TOKEN);
    if (error.statusCode === 403) return new Error(`The Hugging Face token cannot write to this repository: ${error.message}`);
    return new Error(`The Hugging Face Hub refused the export (${error.statusCode}): ${error.message}`);
  }
  if (error instanceof TypeError && /token/i.test(error.message)) return new Error(INVALID_HF_TOKEN);
  return error instanceof Error ? error : new Error(String(error));
}

/** Every file of the exported repository (hub-contract §3 layout). */
export async function buildHubExportFiles(
  db: Kysely<Tables>,
  request: Pick<HubExportPayload, 'dataset_id' | 'name' | 'subset' | 'split'>,
): Promise<{ files: HubExportFile[]; records: number }> {
  const dataset = await getDatasetOrThrow(db, request.dataset_id);
  const [fields, questions, metadataProperties, vectorSettings] = await Promise.all([
    listFields(db, dataset.id),
    listQuestions(db, dataset.id),
    listMetadataProperties(db, dataset.id),
    listVectorSettings(db, dataset.id),
  ]);
  const columns = await buildRecordColumns(db, dataset, fields, questions, metadataProperties, vectorSettings);
  const records = columns[0]?.values.length ?? 0;
  if (records === 0) throw new UnprocessableError(`Dataset with id \`${dataset.id}\` has no records to export`);

  const dir = request.subset === 'default' ? 'data' : request.subset;
  const parquetPath = `${dir}/${request.split}-00000-of-00001.parquet`;
  const settings = {
    guidelines: dataset.guidelines,
    allow_extra_metadata: dataset.allow_extra_metadata === 1,
    distribution: fromJson<unknown>(dataset.distribution),
    fields: fields.map(presentField),
    questions: questions.map(presentQuestion),
    metadata: metadataProperties.map(presentMetadataProperty),
    vectors: vectorSettings.map(presentVectorSettings),
  };
  const json = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
  const files: HubExportFile[] = [
    { path: parquetPath, content: writeExportParquet(columns) },
    { path: '.argilla/version.json', content: json({ argilla: ARGILLA_VERSION }) },
    { path: '.argilla/dataset.json', content: json(presentDataset(dataset)) },
    { path: '.argilla/settings.json', content: json(settings) },
    { path: 'README.md', content: new TextEncoder().encode(datasetCard(request, dir, settings)) },
  ];
  return { files, records };
}

interface QuestionSettings {
  type: string;
}

/** Parquet type of a question's answer value (responses and suggestions). */
function answerType(question: QuestionRow): ColumnType {
  const { type } = fromJson<QuestionSettings>(question.settings);
  switch (type) {
    case 'multi_label_selection':
      return T.list(T.string);
    case 'rating':
      return T.int;
    case 'ranking':
      return T.list(T.struct([['value', T.string], ['rank', T.int]]));
    case 'span':
      return T.list(T.struct([['start', T.int], ['end', T.int], ['label', T.string]]));
    default:
      return T.string;
  }
}

function fieldType(field: FieldRow, values: unknown[]): ColumnType {
  const { type } = fromJson<{ type: string }>(field.settings);
  if (type === 'chat') return T.list(T.struct([['role', T.string], ['content', T.string]]));
  if (type === 'image') {
    const present = values.filter((v) => v !== null && v !== undefined);
    // hub-contract §3: image data URLs become an Image feature; URLs stay strings.
    if (present.length > 0 && present.every((v) => typeof v === 'string' && v.startsWith('data:'))) return T.image;
  }
  return T.string;
}

/** One column per record attribute, every column on every row (null when absent) [ours]. */
async function buildRecordColumns(
  db: Kysely<Tables>,
  dataset: DatasetRow,
  fields: FieldRow[],
  questions: QuestionRow[],
  metadataProperties: { name: string; settings: string }[],
  vectorSettings: { id: string; name: string }[],
): Promise<ExportColumn[]> {
  const records = await db.selectFrom('records').selectAll().where('dataset_id', '=', dataset.id).orderBy('inserted_at').orderBy('rid').execute();
  const index = new Map(records.map((r, i) => [r.id, i]));
  const n = records.length;
  const blank = () => new Array<unknown>(n).fill(null);

  const columns: ExportColumn[] = [
    { name: 'id', type: T.string, values: records.map((r) => r.external_id ?? r.id) },
    { name: 'status', type: T.string, values: records.map((r) => r.status) },
    { name: 'inserted_at', type: T.string, values: records.map((r) => presentTimestamp(r.inserted_at)) },
    { name: 'updated_at', type: T.string, values: records.map((r) => presentTimestamp(r.updated_at)) },
    { name: '_server_id', type: T.string, values: records.map((r) => r.id) },
  ];

  const recordFields = records.map((r) => fromJson<Record<string, unknown>>(r.fields) ?? {});
  for (const field of fields) {
    const values = recordFields.map((f) => f[field.name] ?? null);
    columns.push({ name: field.name, type: fieldType(field, values), values });
  }

  const responses = await db
    .selectFrom('responses')
    .select(['record_id', 'user_id', 'status', 'values'])
    .where('dataset_id', '=', dataset.id)
    .orderBy('inserted_at')
    .execute();
  const suggestions = await db
    .selectFrom('suggestions')
    .select(['record_id', 'question_id', 'value', 'agent', 'score'])
    .where('dataset_id', '=', dataset.id)
    .execute();
  const validated = await validatedAnswerColumns(db, dataset.id, index, n);
  for (const question of questions) {
    const type = answerType(question);
    const answers = blank();
    const users = blank();
    const statuses = blank();
    for (const response of responses) {
      const i = index.get(response.record_id);
      if (i === undefined) continue;
      const values = fromNullableJson<Record<string, { value: unknown }>>(response.values);
      const answer = values?.[question.name]?.value;
      // Only responses that answer this question, as the SDK's own conversion lists them: its
      // from_hub turns every listed entry into a Response and refuses a null value.
      if (answer === null || answer === undefined) continue;
      pushAt(answers, i, answer);
      pushAt(users, i, response.user_id);
      pushAt(statuses, i, response.status);
    }
    const suggestion = blank();
    const agent = blank();
    const score = blank();
    for (const s of suggestions) {
      const i = index.get(s.record_id);
      if (i === undefined || s.question_id !== question.id) continue;
      suggestion[i] = fromJson<unknown>(s.value);
      agent[i] = s.agent;
      score[i] = fromNullableJson<unknown>(s.score);
    }
    const scoreType = score.some(Array.isArray) ? T.list(T.float) : T.float;
    columns.push(
      { name: `${question.name}.responses`, type: T.list(type), values: answers },
      { name: `${question.name}.responses.users`, type: T.list(T.string), values: users },
      { name: `${question.name}.responses.status`, type: T.list(T.string), values: statuses },
      { name: `${question.name}.suggestion`, type, values: suggestion },
      { name: `${question.name}.suggestion.agent`, type: T.string, values: agent },
      { name: `${question.name}.suggestion.score`, type: scoreType, values: score },
      // Scholia extension: the record's final answer when it is validated (the SDK reads only the columns it knows).
      { name: `${question.name}.validated`, type, values: validated(question.name) },
    );
  }

  const recordMetadata = records.map((r) => fromNullableJson<Record<string, unknown>>(r.metadata) ?? {});
  for (const property of metadataProperties) {
    const { type } = fromJson<{ type: string }>(property.settings);
    const columnType = type === 'terms' ? T.list(T.string) : type === 'integer' ? T.int : T.float;
    // hub-contract §3: `terms` is always a list; undeclared metadata is not exported.
    columns.push({ name: `metadata.${property.name}`, type: columnType, values: recordMetadata.map((m) => m[property.name] ?? null) });
  }

  if (vectorSettings.length > 0) {
    const vectors = await db.selectFrom('vectors').select(['record_id', 'vector_settings_id', 'value']).where('dataset_id', '=', dataset.id).execute();
    for (const settings of vectorSettings) {
      const values = blank();
      for (const v of vectors) {
        const i = index.get(v.record_id);
        if (i !== undefined && v.vector_settings_id === settings.id) values[i] = presentVector(v.value);
      }
      columns.push({ name: `vector.${settings.name}`, type: T.list(T.float), values });
    }
  }
  return columns;
}

/** Appends to the list in `column[i]`, creating it: a record without responses keeps `null`. */
function pushAt(column: unknown[], i: number, value: unknown): void {
  const list = (column[i] as unknown[] | null) ?? [];
  list.push(value);
  column[i] = list;
}

interface CardSettings {
  guidelines: string | null;
  fields: { name: string; title: string; required: boolean; settings: { type?: string } }[];
  questions: { name: string; title: string; description: string | null; required: boolean; settings: { type?: string; options?: { value: unknown }[] } }[];
  metadata: { name: string; title: string; settings: { type?: string } }[];
  vectors: { name: string; title: string; dimensions: number }[];
}

/** README with the Argilla tags, a `configs` entry so the subset is found, and the settings tables. */
function datasetCard(request: { name: string; subset: string; split: string }, dir: string, settings: CardSettings): string {
  const repoName = request.name.split('/').pop() ?? request.name;
  const cell = (value: unknown) => String(value ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const table = (header: string[], rows: unknown[][]) =>
    [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
  return [
    '---',
    'tags:',
    '- rlfh',
    '- argilla',
    '- human-feedback',
    'configs:',
    `- config_name: ${JSON.stringify(request.subset)}`,
    '  data_files:',
    `  - split: ${JSON.stringify(request.split)}`,
    `    path: ${JSON.stringify(`${dir}/${request.split}-*`)}`,
    '---',
    '',
    `# Dataset Card for ${repoName}`,
    '',
    'This dataset was exported from Scholia, an Argilla v2 compatible annotation server.',
    '',
    '## Using this dataset with Argilla',
    '',
    '```python',
    'import argilla as rg',
    '',
    `ds = rg.Dataset.from_hub("${request.name}", settings="auto")`,
    '```',
    '',
    '## Using this dataset with `datasets`',
    '',
    '```python',
    'from datasets import load_dataset',
    '',
    `ds = load_dataset("${request.name}")`,
    '```',
    '',
    '## Dataset Structure',
    '',
    '### Fields',
    '',
    table(['Field Name', 'Title', 'Type', 'Required'], settings.fields.map((f) => [f.name, f.title, f.settings.type, f.required])),
    '',
    '### Questions',
    '',
    table(
      ['Question Name', 'Title', 'Type', 'Required', 'Description', 'Values/Labels'],
      settings.questions.map((q) => [q.name, q.title, q.settings.type, q.required, q.description ?? '', (q.settings.options ?? []).map((o) => o.value).join(', ')]),
    ),
    ...(settings.metadata.length > 0
      ? ['', '### Metadata', '', table(['Metadata Name', 'Title', 'Type'], settings.metadata.map((m) => [m.name, m.title, m.settings.type]))]
      : []),
    ...(settings.vectors.length > 0
      ? ['', '### Vectors', '', table(['Vector Name', 'Title', 'Dimensions'], settings.vectors.map((v) => [v.name, v.title, v.dimensions]))]
      : []),
    '',
    '### Annotation guidelines',
    '',
    settings.guidelines ?? '',
    '',
  ].join('\n');
}
