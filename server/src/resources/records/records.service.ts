import type { Kysely } from 'kysely';
import type { RecordCreate, RecordUpdateBody, RecordUpsert } from '@scholia/shared/contract';
import { NotFoundError, RequestValidationError, UnprocessableError } from '../../errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import type { Database } from '../../storage/dialect.js';
import { sqliteHandle } from '../../storage/open-database.js';
import { retryWriteConflicts } from '../../storage/write-conflicts.js';
import { fromJson, toJson } from '../../storage/json.js';
import {
  deleteRecords,
  deleteSuggestionsOfRecord,
  findExistingUserIds,
  findRecordById,
  findRecordsByExternalIds,
  findRecordsByIds,
  recordDatasetUsers,
  touchDatasetActivity,
  upsertRecordRows,
  upsertResponseRows,
  upsertSuggestionRows,
  upsertVectorRows,
  type RecordWrite,
  type StoredRecord,
} from '../../storage/repositories/records.repository.js';
import type { TextIndexField } from '../../storage/search/text-index.js';
import { recordTextsDeleted, recordTextsWritten } from '../../storage/search/text-index-writes.js';
import type { DatasetRow, ResponseRow, SuggestionRow, Tables, UserRow, VectorRow } from '../../storage/tables.js';
import { encodeVector } from '../../storage/vector-codec.js';
import { getDatasetOrThrow, holdDatasetOrThrow } from '../datasets/dataset-lookup.js';
import type { CheckedSuggestion } from '../suggestions/validate-suggestion.js';
import { loadRecordRelations } from './load-record-relations.js';
import { INCLUDE_EVERYTHING } from './record-include.js';
import { loadRecordContext, type RecordContext } from './record-context.js';
import { presentParsedRecord, presentRecord, type RecordJson } from './record.presenter.js';
import { minSubmitted, refreshRecordStatuses } from './record-status.js';
import { recordPolicy } from './records.policy.js';
import { datasetEventData, recordEventData, type DatasetEventData } from '../../webhooks/webhook-payloads.js';
import { raiseWebhookEvents } from '../../webhooks/webhook-events.js';
import {
  checkFields,
  checkMetadata,
  checkResponses,
  checkSuggestions,
  checkVectors,
  type CheckedResponse,
  type CheckedVector,
} from './validate-record.js';

type Db = Kysely<Tables>;

/** Contract §6.4. */
export const DELETE_RECORDS_MAX = 100;

/** Loads a record or throws the contract's 404. */
export async function getRecordOrThrow(db: Db, id: string): Promise<StoredRecord> {
  const record = await findRecordById(db, id);
  if (!record) throw new NotFoundError(`Record with id \`${id}\` not found`);
  return record;
}

/** One record of a bulk write after its checks: the final row and what to upsert with it. */
interface PlannedRecord {
  row: RecordWrite;
  existing: boolean;
  /** parsed final fields (text index, span checks) */
  fields: Record<string, unknown>;
  /** A new record's metadata as sent, for its reply (existing records are read back). */
  metadata: Record<string, unknown> | null;
  fieldsChanged: boolean;
  suggestions: CheckedSuggestion[];
  responses: CheckedResponse[];
  vectors: CheckedVector[];
}

interface BulkInput {
  id?: string | null;
  external_id?: string | number | null;
  fields?: Record<string, unknown> | null;
  metadata?: Record<string, unknown> | null;
  suggestions?: RecordCreate['suggestions'];
  responses?: RecordCreate['responses'];
  vectors?: RecordCreate['vectors'];
}

/** `POST /datasets/{id}/records/bulk`: create only; existing external ids are refused. */
export async function createRecordsBulk(database: Database, user: UserRow, datasetId: string, items: RecordCreate[]): Promise<RecordJson[]> {
  checkBulkShape(items);
  const { db } = database;
  const dataset = await getWritableDataset(db, user, datasetId);
  const externalIds = items.map((i) => externalIdOf(i.external_id)).filter((e): e is string => e !== null);
  // A concurrent request may create the same external ids between the check and the write: the
  // retry's check then refuses them as duplicates instead of the insert failing.
  return retryWriteConflicts(async () => {
    const found = new Set((await findRecordsByExternalIds(db, dataset.id, externalIds)).map((r) => r.external_id));
    const duplicates = externalIds.filter((e) => found.has(e));
    if (duplicates.length > 0) throw new UnprocessableError(`found records with same external ids: ${duplicates.join(', ')}`);
    const { records } = await writeBulk(database, dataset, items, new Map(), new Map());
    return records;
  });
}

/** `PUT /datasets/{id}/records/bulk`: matched by external_id, then id, within the dataset. */
export async function upsertRecordsBulk(
  database: Database,
  user: UserRow,
  datasetId: string,
  items: RecordUpsert[],
): Promise<{ items: RecordJson[]; updated_item_ids: string[] }> {
  checkBulkShape(items);
  const { db } = database;
  const dataset = await getWritableDataset(db, user, datasetId);
  const externalIds = items.map((i) => externalIdOf(i.external_id)).filter((e): e is string => e !== null);
  // Two requests logging the same new records at once both see them missing; the loser's insert
  // then meets the winner's row (or, on PostgreSQL, a lock cycle): it reads again and retries.
  return retryWriteConflicts(async () => {
    const byExternalId = new Map((await findRecordsByExternalIds(db, dataset.id, externalIds)).map((r) => [r.external_id!, r]));
    const idsToFind = items
      .filter((i) => i.id && !byExternalId.has(externalIdOf(i.external_id) ?? '\u0000'))
      .map((i) => i.id as string);
    const byId = new Map((await findRecordsByIds(db, dataset.id, idsToFind)).map((r) => [r.id, r]));
    const { records, updatedIds } = await writeBulk(database, dataset, items, byExternalId, byId);
    return { items: records, updated_item_ids: updatedIds };
  });
}

/** Request-shape rules the reference enforces in its schema (422 validation shape). */
function checkBulkShape(items: BulkInput[]): void {
  const externalIds = items.map((i) => externalIdOf(i.external_id)).filter((e) => e !== null);
  if (new Set(externalIds).size !== externalIds.length) {
    throw RequestValidationError.valueError(['body', 'items'], 'External IDs must be unique');
  }
  items.forEach((item, index) => {
    const seen = new Set<string>();
    (item.responses ?? []).forEach((response, position) => {
      if (seen.has(response.user_id)) {
        throw RequestValidationError.valueError(
          ['body', 'items', index, 'responses'],
          `'responses' contains several responses for the same user_id='${response.user_id}'`,
        );
      }
      seen.add(response.user_id);
      // UserResponse: draft and submitted need the `values` key (contract §3.6).
      if (response.status !== 'discarded' && (response.values === undefined || response.values === null)) {
        throw new RequestValidationError([
          { type: 'missing', loc: ['body', 'items', index, 'responses', position, response.status, 'values'], msg: 'Field required' },
        ]);
      }
    });
  });
}

async function getWritableDataset(db: Db, user: UserRow, datasetId: string): Promise<DatasetRow> {
  const dataset = await getDatasetOrThrow(db, datasetId);
  await recordPolicy.write(db, user, dataset);
  // Contract §6.2: nothing is written to a draft dataset.
  if (dataset.status !== 'ready') throw new UnprocessableError('records cannot be created for a non published dataset');
  return dataset;
}

const externalIdOf = (value: string | number | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

/**
 * Validates every item in memory (first failure aborts with its position), then writes all of
 * them in ONE transaction with multi-row statements, and reads them back with relations.
 */
async function writeBulk(
  database: Database,
  dataset: DatasetRow,
  items: BulkInput[],
  byExternalId: Map<string, StoredRecord>,
  byId: Map<string, StoredRecord>,
): Promise<{ records: RecordJson[]; updatedIds: string[] }> {
  const { db } = database;
  const context = await loadRecordContext(db, dataset);
  const userIds = items.flatMap((i) => (i.responses ?? []).map((r) => r.user_id));
  const existingUsers = userIds.length > 0 ? await findExistingUserIds(db, userIds) : new Set<string>();

  const planned = new Map<string, PlannedRecord>(); // by record id, in first-seen order
  const order: string[] = [];
  const updatedIds: string[] = [];
  items.forEach((item, position) => {
    const externalId = externalIdOf(item.external_id);
    const existing = (externalId !== null ? byExternalId.get(externalId) : undefined) ?? (item.id ? byId.get(item.id) : undefined);
    try {
      const previous = existing ? planned.get(existing.id) : undefined;
      const plan = planRecord(item, externalId, existing, previous, context, existingUsers);
      const id = plan.row.id;
      if (!planned.has(id)) {
        if (existing) updatedIds.push(id);
      }
      planned.set(id, plan);
      order.push(id);
    } catch (error) {
      if (error instanceof UnprocessableError) {
        throw new UnprocessableError(`Record at position ${position} is not valid because ${error.message}`);
      }
      throw error;
    }
  });

  // Existing records in id order, so concurrent writers lock their rows in one order (no cycle);
  // new ones in the order given, which becomes their insertion order.
  const plans = [
    ...[...planned.values()].filter((plan) => plan.existing).sort((a, b) => (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0)),
    ...[...planned.values()].filter((plan) => !plan.existing),
  ];
  const written = await db.transaction().execute(async (trx) => {
    const writtenRelations = await persistPlans(trx, database, context, plans);
    const presented = new Map<string, RecordJson>();
    // New records are exactly what was written: present them without reading back.
    const min = minSubmitted(dataset);
    for (const plan of plans.filter((p) => !p.existing)) {
      const { suggestions, responses } = writtenRelations.get(plan.row.id)!;
      const submitted = responses.filter((r) => r.status === 'submitted').length;
      const row = { ...plan.row, external_id: plan.row.external_id ?? null, submitted_count: submitted, status: submitted >= min ? ('completed' as const) : ('pending' as const) };
      const vectors = Object.fromEntries(plan.vectors.map((v) => [context.vectorSettingsNames.get(v.vectorSettingsId)!, v.value]));
      presented.set(plan.row.id, presentParsedRecord(row, plan.fields, plan.metadata, { suggestions, responses, vectors }));
    }
    // Existing records may carry relations this request did not touch: read them back.
    const existingIds = plans.filter((p) => p.existing).map((p) => p.row.id);
    if (existingIds.length > 0) {
      const rows = await findRecordsByIds(trx, dataset.id, existingIds);
      const relations = await loadRecordRelations(trx, rows, INCLUDE_EVERYTHING);
      for (const row of rows) presented.set(row.id, presentRecord(row, relations.get(row.id)));
    }
    await raiseRecordEvents(trx, dataset, plans, presented);
    return presented;
  });
  database.textIndexer.wake();
  return { records: order.map((id) => written.get(id)!), updatedIds };
}

/** `record.created` for new records, `record.updated` for existing ones, queued with the write. */
async function raiseRecordEvents(trx: Db, dataset: DatasetRow, plans: PlannedRecord[], presented: Map<string, RecordJson>): Promise<void> {
  let datasetData: DatasetEventData | undefined;
  const ofDataset = async () => (datasetData ??= await datasetEventData(trx, dataset));
  for (const [event, existing] of [['record.created', false], ['record.updated', true]] as const) {
    const ids = plans.filter((plan) => plan.existing === existing).map((plan) => plan.row.id);
    if (ids.length === 0) continue;
    await raiseWebhookEvents(trx, event, async () => {
      const data = await ofDataset();
      return ids.map((id) => recordEventData(presented.get(id)!, data));
    });
  }
}

/** Checks one bulk item and builds its final row (existing records: only present keys apply). */
function planRecord(
  item: BulkInput,
  externalId: string | null,
  existing: StoredRecord | undefined,
  previous: PlannedRecord | undefined,
  context: RecordContext,
  existingUsers: Set<string>,
): PlannedRecord {
  const now = nowTimestamp();
  let fields: Record<string, unknown>;
  let fieldsChanged: boolean;
  let row: RecordWrite;
  if (!existing) {
    fields = checkFields(item.fields, context);
    fieldsChanged = true;
    checkMetadata(item.metadata, context);
    row = {
      id: newId(),
      dataset_id: context.dataset.id,
      external_id: externalId,
      fields: toJson(fields),
      metadata: item.metadata === undefined || item.metadata === null ? null : toJson(item.metadata),
      status: 'pending',
      submitted_count: 0,
      inserted_at: now,
      updated_at: now,
    };
  } else {
    const base = previous?.row ?? existing;
    fieldsChanged = previous?.fieldsChanged ?? false;
    fields = previous?.fields ?? fromJson<Record<string, unknown>>(existing.fields);
    let storedFields = base.fields;
    // A present `fields` replaces them whole: null is refused as empty, as the reference does.
    if (item.fields !== undefined) {
      fields = checkFields(item.fields, context);
      storedFields = toJson(fields);
      fieldsChanged = true;
    }
    let metadata = base.metadata ?? null;
    if (item.metadata !== undefined) {
      checkMetadata(item.metadata, context);
      metadata = item.metadata === null ? null : toJson(item.metadata);
    }
    row = {
      id: existing.id,
      dataset_id: existing.dataset_id,
      external_id: existing.external_id,
      fields: storedFields,
      metadata,
      status: existing.status,
      submitted_count: existing.submitted_count,
      inserted_at: existing.inserted_at,
      updated_at: now,
    };
  }
  const vectors = checkVectors(item.vectors, context);
  const suggestions = checkSuggestions(item.suggestions, context, fields);
  const responses = checkResponses(item.responses, context, fields, existingUsers);
  return {
    row,
    existing: !!existing,
    fields,
    metadata: existing ? null : (item.metadata ?? null),
    fieldsChanged,
    // A record listed twice in one batch: later keys win, per question / user / vector name.
    suggestions: mergeBy(previous?.suggestions, suggestions, (s) => s.question_id),
    responses: mergeBy(previous?.responses, responses, (r) => r.user_id),
    vectors: mergeBy(previous?.vectors, vectors, (v) => v.vectorSettingsId),
  };
}

function mergeBy<T>(before: T[] | undefined, after: T[], key: (item: T) => string): T[] {
  if (!before || before.length === 0) return after;
  const merged = new Map(before.map((item) => [key(item), item]));
  for (const item of after) merged.set(key(item), item);
  return [...merged.values()];
}

/** Writes planned records and their relations; keeps text index, statuses and activity in step. */
async function persistPlans(
  trx: Db,
  database: Database,
  context: RecordContext,
  plans: PlannedRecord[],
): Promise<Map<string, { suggestions: SuggestionRow[]; responses: ResponseRow[] }>> {
  const datasetId = context.dataset.id;
  await holdDatasetOrThrow(trx, datasetId);
  // SQLite: the connection under `trx`, for cached multi-row statements (records.repository).
  const raw = database.dialect === 'sqlite' ? sqliteHandle(database.db) : undefined;
  // A batch of new records only (an ingestion) has no row that could exist yet: plain INSERTs.
  const writeOptions = { allNew: plans.every((p) => !p.existing) };
  const rids = await upsertRecordRows(
    trx,
    plans.map((p) => p.row),
    raw,
    writeOptions,
  );

  const suggestionRows: SuggestionRow[] = [];
  const vectorRows: VectorRow[] = [];
  const responseRows: ResponseRow[] = [];
  const relations = new Map<string, { suggestions: SuggestionRow[]; responses: ResponseRow[] }>();
  for (const plan of plans) {
    const recordId = plan.row.id;
    const written = { suggestions: [] as SuggestionRow[], responses: [] as ResponseRow[] };
    relations.set(recordId, written);
    for (const s of plan.suggestions) {
      const row = suggestionRow(recordId, datasetId, s);
      suggestionRows.push(row);
      written.suggestions.push(row);
    }
    for (const v of plan.vectors) {
      const now = nowTimestamp();
      vectorRows.push({ record_id: recordId, dataset_id: datasetId, vector_settings_id: v.vectorSettingsId, value: blob(v.value), inserted_at: now, updated_at: now });
    }
    for (const r of plan.responses) {
      const now = nowTimestamp();
      const row: ResponseRow = {
        id: newId(),
        record_id: recordId,
        dataset_id: datasetId,
        user_id: r.user_id,
        status: r.status,
        values: r.values === null ? null : toJson(r.values),
        inserted_at: now,
        updated_at: now,
      };
      responseRows.push(row);
      written.responses.push(row);
    }
  }
  if (suggestionRows.length > 0) await upsertSuggestionRows(trx, suggestionRows, raw, writeOptions);
  if (vectorRows.length > 0) await upsertVectorRows(trx, vectorRows, raw, writeOptions);

  const texts = plans.filter((p) => !p.existing || p.fieldsChanged).map((p) => ({ rid: rids.get(p.row.id)!, fields: p.fields, fresh: !p.existing }));
  await recordTextsWritten(trx, datasetId, textIndexFields(context), texts);

  if (responseRows.length > 0) {
    await upsertResponseRows(trx, responseRows, raw, writeOptions);
    await refreshRecordStatuses(trx, context.dataset, [...new Set(responseRows.map((r) => r.record_id))]);
    const now = nowTimestamp();
    await recordDatasetUsers(trx, datasetId, responseRows.map((r) => r.user_id), now);
    await touchDatasetActivity(trx, datasetId, now); // in the bulk transaction: one per request of up to 500 records
  }
  return relations;
}

export function suggestionRow(recordId: string, datasetId: string, s: CheckedSuggestion): SuggestionRow {
  const now = nowTimestamp();
  return {
    id: newId(),
    record_id: recordId,
    dataset_id: datasetId,
    question_id: s.question_id,
    type: s.type,
    value: toJson(s.value),
    agent: s.agent,
    score: s.score === null ? null : toJson(s.score),
    inserted_at: now,
    updated_at: now,
  };
}

/** Float64 BLOB as a Buffer view (no copy): what the SQLite and pg drivers bind. */
function blob(values: number[]): Uint8Array {
  const bytes = encodeVector(values);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The dataset's fields in creation order, as the text index wants them. */
function textIndexFields(context: RecordContext): TextIndexField[] {
  return context.fields.map((f) => ({ name: f.name, settings: { type: f.type } }));
}

/** `DELETE /datasets/{id}/records?ids=`: unknown ids are ignored (contract §2.9). */
export async function deleteDatasetRecords(database: Database, user: UserRow, datasetId: string, rawIds: string | undefined): Promise<void> {
  if (rawIds === undefined) throw new RequestValidationError([{ type: 'missing', loc: ['query', 'ids'], msg: 'Field required' }]);
  const ids = parseIdList(rawIds);
  const { db } = database;
  const dataset = await getDatasetOrThrow(db, datasetId);
  await recordPolicy.write(db, user, dataset);
  if (ids.length === 0) throw new UnprocessableError('No record IDs provided');
  if (ids.length > DELETE_RECORDS_MAX) throw new UnprocessableError(`Cannot delete more than ${DELETE_RECORDS_MAX} records at once`);
  await db.transaction().execute(async (trx) => {
    await raiseWebhookEvents(trx, 'record.deleted', async () => {
      const data = await datasetEventData(trx, dataset);
      return (await findRecordsByIds(trx, dataset.id, ids)).map((row) => recordEventData(row, data));
    });
    const deleted = await deleteRecords(trx, dataset.id, ids);
    await recordTextsDeleted(trx, dataset.id, deleted.map((r) => Number(r.rid)));
  });
  database.textIndexer.wake();
}

/** A comma-separated id list of a query string; a malformed UUID is the contract's plain 422. */
export function parseIdList(raw: string): string[] {
  const ids = [
    ...new Set(
      raw
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.some((id) => !isUuid(id))) throw new UnprocessableError('Invalid UUID format');
  return ids.map((id) => id.toLowerCase());
}

/** `PATCH /records/{id}`: fields/metadata replace, suggestions replace all, vectors upsert by name. */
export async function updateRecord(database: Database, user: UserRow, recordId: string, body: RecordUpdateBody): Promise<RecordJson> {
  const { db } = database;
  const record = await getRecordOrThrow(db, recordId);
  const dataset = await getDatasetOrThrow(db, record.dataset_id);
  await recordPolicy.write(db, user, dataset);
  const context = await loadRecordContext(db, dataset);

  let fields = fromJson<Record<string, unknown>>(record.fields);
  const changes: Partial<Pick<StoredRecord, 'fields' | 'metadata' | 'updated_at'>> = { updated_at: nowTimestamp() };
  if (body.fields !== undefined) {
    fields = checkFields(body.fields, context);
    changes.fields = toJson(fields);
  }
  if (body.metadata !== undefined) {
    checkMetadata(body.metadata, context);
    changes.metadata = body.metadata === null ? null : toJson(body.metadata);
  }
  const suggestions = body.suggestions ? checkSuggestions(body.suggestions, context, fields) : undefined;
  const vectors = checkVectors(body.vectors, context);

  const updated = await db.transaction().execute(async (trx) => {
    await trx.updateTable('records').set(changes).where('id', '=', record.id).execute();
    if (suggestions) {
      await deleteSuggestionsOfRecord(trx, record.id);
      if (suggestions.length > 0) await upsertSuggestionRows(trx, suggestions.map((s) => suggestionRow(record.id, dataset.id, s)));
    }
    if (vectors.length > 0) {
      const now = nowTimestamp();
      await upsertVectorRows(
        trx,
        vectors.map((v) => ({ record_id: record.id, dataset_id: dataset.id, vector_settings_id: v.vectorSettingsId, value: blob(v.value), inserted_at: now, updated_at: now })),
      );
    }
    if (changes.fields) await recordTextsWritten(trx, dataset.id, textIndexFields(context), [{ rid: Number(record.rid), fields, fresh: false }]);
    const row = (await findRecordById(trx, record.id))!;
    await raiseWebhookEvents(trx, 'record.updated', async () => [recordEventData(row, await datasetEventData(trx, dataset))]);
    const relations = await loadRecordRelations(trx, [row], INCLUDE_EVERYTHING);
    return presentRecord(row, relations.get(row.id));
  });
  database.textIndexer.wake();
  return updated;
}

/** `DELETE /records/{id}`: 200 with the record, no relationship keys. */
export async function deleteRecord(database: Database, user: UserRow, recordId: string): Promise<RecordJson> {
  const { db } = database;
  const record = await getRecordOrThrow(db, recordId);
  const dataset = await getDatasetOrThrow(db, record.dataset_id);
  await recordPolicy.write(db, user, dataset);
  await db.transaction().execute(async (trx) => {
    await raiseWebhookEvents(trx, 'record.deleted', async () => [recordEventData(record, await datasetEventData(trx, dataset))]);
    await deleteRecords(trx, dataset.id, [record.id]);
    await recordTextsDeleted(trx, dataset.id, [Number(record.rid)]);
  });
  database.textIndexer.wake();
  return presentRecord(record);
}

