import type { HubImportBody, RecordUpsert, SuggestionCreate } from '@scholia/shared/contract';
import { UnprocessableError } from '../errors.js';
import type { JobContext } from '../jobs/job-worker.js';
import { findUserById } from '../storage/repositories/users.repository.js';
import { getDatasetOrThrow } from '../resources/datasets/dataset-lookup.js';
import { loadRecordContext, type RecordContext } from '../resources/records/record-context.js';
import { upsertRecordsBulk } from '../resources/records/records.service.js';
import { checkFields, checkMetadata, checkSuggestions } from '../resources/records/validate-record.js';
import { castCell, type Feature } from './hub-features.js';
import { assertHubRepoId } from './hub-repo-id.js';
import { readHubRows } from './hub-rows.js';

export const HUB_IMPORT_JOB = 'hub-import';

/** Contract §2.4 / product spec §9: only the first 10K rows of the split are imported. */
export const HUB_IMPORT_MAX_ROWS = 10_000;

/** What the import job stores as payload (no secrets: imports read public datasets only, like Argilla). */
export interface HubImportPayload extends HubImportBody {
  dataset_id: string;
  user_id: string;
}

export interface HubImportResult {
  imported: number;
  skipped: number;
  source: 'parquet' | 'rows';
}

/**
 * The `hub-import` job: reads ≤10,000 rows of one subset/split, maps them (hub-contract §2) and
 * upserts them by external_id.
 *
 * All-or-nothing [ours]: every row is read and mapped in memory first, then ONE bulk upsert
 * (one transaction) writes them; a Hub, mapping or database failure leaves the dataset as it was
 * and the job `failed`. Rows the reference would reject one by one (e.g. a required field that is
 * null) are skipped and counted, as Argilla skips per-record errors.
 */
export async function runHubImportJob({ payload, database, config, signal }: JobContext): Promise<HubImportResult> {
  const request = payload as unknown as HubImportPayload;
  assertHubRepoId(request.name);
  const { db } = database;
  const dataset = await getDatasetOrThrow(db, request.dataset_id);
  // Contract §6.2 (reference: the job fails on a draft dataset).
  if (dataset.status !== 'ready') throw new UnprocessableError('Dataset must be published before importing records');
  const user = await findUserById(db, request.user_id);
  if (!user) throw new UnprocessableError('The user who started the import no longer exists');
  const context = await loadRecordContext(db, dataset);

  const mapping = request.mapping;
  const columns = [
    ...new Set([
      ...mapping.fields.map((m) => m.source),
      ...(mapping.metadata ?? []).map((m) => m.source),
      ...(mapping.suggestions ?? []).map((m) => m.source),
      ...(mapping.external_id ? [mapping.external_id] : []),
    ]),
  ];
  const { rows, features, source } = await readHubRows({
    viewerUrl: config.datasetsServerUrl,
    dataset: request.name,
    subset: request.subset,
    split: request.split,
    columns,
    limit: HUB_IMPORT_MAX_ROWS,
    signal,
  });
  signal.throwIfAborted();

  const items = new Map<string, RecordUpsert>(); // by external id: a repeated id keeps its last row
  let skipped = 0;
  rows.forEach((row, index) => {
    const item = mapHubRow(row, index, request, features, context);
    if (item) items.set(String(item.external_id), item);
    else skipped += 1;
  });
  if (items.size > 0) await upsertRecordsBulk(database, user, dataset.id, [...items.values()]);
  return { imported: items.size, skipped, source };
}

/**
 * One Hub row as a record upsert (hub-contract §2 casts), or undefined when its fields are not
 * valid for the dataset. Invalid metadata values and suggestions are dropped, not the record.
 */
export function mapHubRow(
  row: Record<string, unknown>,
  index: number,
  request: Pick<HubImportBody, 'split' | 'mapping'>,
  features: Record<string, Feature>,
  context: RecordContext,
): RecordUpsert | undefined {
  const { mapping } = request;
  const cell = (source: string) => castCell(row[source], features[source]);

  const fields: Record<string, unknown> = {};
  for (const { source, target } of mapping.fields) {
    const field = context.fields.find((f) => f.name === target);
    const value = cell(source);
    if (!field || value === null || value === undefined) continue;
    fields[target] = fieldValue(field.type, value);
  }
  let checkedFields: Record<string, unknown>;
  try {
    checkedFields = checkFields(fields, context);
  } catch {
    return undefined;
  }

  const metadata: Record<string, unknown> = {};
  for (const { source, target } of mapping.metadata ?? []) {
    const property = context.metadataProperties.get(target);
    const value = cell(source);
    if (!property || value === null || value === undefined) continue;
    const candidate = property.settings.type === 'terms' ? termsValue(value) : value;
    try {
      checkMetadata({ [target]: candidate }, context);
      metadata[target] = candidate;
    } catch {
      /* an out-of-range or mistyped value is left out */
    }
  }

  const suggestions: SuggestionCreate[] = [];
  for (const { source, target } of mapping.suggestions ?? []) {
    const question = context.questions.find((q) => q.name === target);
    const value = cell(source);
    if (!question || value === null || value === undefined) continue;
    const suggestion = { question_id: question.id, value: suggestionValue(question.settings, value) };
    try {
      checkSuggestions([suggestion], context, checkedFields);
      if (!suggestions.some((s) => s.question_id === question.id)) suggestions.push(suggestion);
    } catch {
      /* a value the question does not accept is left out */
    }
  }

  const rawId = mapping.external_id ? cell(mapping.external_id) : null;
  const external_id = rawId === null || rawId === undefined || rawId === '' ? `${request.split}_${index}` : String(rawId);
  return {
    external_id,
    fields,
    metadata: Object.keys(metadata).length > 0 ? metadata : undefined,
    suggestions: suggestions.length > 0 ? suggestions : undefined,
  };
}

/** hub-contract §2: text fields get `String(v)`; image, chat and custom values are kept. */
function fieldValue(type: string, value: unknown): unknown {
  if (type === 'text') return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (type === 'chat' && typeof value === 'string') return [{ role: 'user', content: value }];
  return value;
}

function termsValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => String(v));
  return String(value);
}

interface QuestionSettingsView {
  type?: string;
  options?: { value: unknown }[];
}

/** hub-contract §2: text/label → String(v); multi-label → string[] (scalar wrapped); rating → int. */
function suggestionValue(settings: unknown, value: unknown): unknown {
  const s = (settings ?? {}) as QuestionSettingsView;
  const labels = new Set((s.options ?? []).map((o) => String(o.value)));
  // Option values the UI created from trimmed ClassLabel names still match untrimmed names.
  const label = (v: unknown) => {
    const text = String(v);
    return labels.has(text) || !labels.has(text.trim()) ? text : text.trim();
  };
  switch (s.type) {
    case 'text':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'label_selection':
      return label(value);
    case 'multi_label_selection':
      return (Array.isArray(value) ? value : [value]).map(label);
    case 'rating':
      return typeof value === 'number' ? Math.trunc(value) : Number.parseInt(String(value), 10);
    default:
      return value;
  }
}
