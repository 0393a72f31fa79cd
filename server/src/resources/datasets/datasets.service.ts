import type { DatasetCreateBody, DatasetUpdateBody, MeDatasetsQuery } from '@scholia/shared/contract';
import { isOwner } from '../../auth/access.js';
import { ConflictError, UnprocessableError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import type { Database } from '../../storage/dialect.js';
import { fromJson, fromNullableJson, toFlag, toJson } from '../../storage/json.js';
import {
  countFields,
  countRequiredQuestions,
  dropMetadataIndex,
  listFields,
  listMetadataProperties,
  listVectorSettings,
} from '../../storage/repositories/dataset-settings.repository.js';
import {
  countRecords,
  countRecordsByStatus,
  countResponsesByUserAndStatus,
  countUserResponsesByStatus,
  deleteDataset as deleteDatasetRow,
  findDatasetById,
  findDatasetByName,
  insertDataset,
  listDatasetUsernames,
  listDatasets,
  updateDataset as updateDatasetRow,
  workspaceExists,
} from '../../storage/repositories/datasets.repository.js';
import { dropVectorIndex } from '../../storage/search/pgvector.js';
import { createTextIndex, dropTextIndex } from '../../storage/search/text-index.js';
import { enqueueTextIndexDrop } from '../../storage/search/text-index-queue.js';
import type { DatasetRow, UserRow } from '../../storage/tables.js';
import { datasetEventData } from '../../webhooks/webhook-payloads.js';
import { queueRecordStatusEvents } from '../../webhooks/record-status-events.js';
import { raiseWebhookEvents } from '../../webhooks/webhook-events.js';
import { applyDistributionToRecords, minSubmitted } from '../records/record-status.js';

const duplicateName = (name: string, workspaceId: string) =>
  new ConflictError(`Dataset with name \`${name}\` already exists for workspace with id \`${workspaceId}\``);

/** `GET /me/datasets`: owners see every dataset, others those of their workspaces. */
export function listUserDatasets(database: Database, user: UserRow, query: MeDatasetsQuery): Promise<DatasetRow[]> {
  return listDatasets(database.db, {
    memberUserId: isOwner(user) ? undefined : user.id,
    workspaceId: query.workspace_id,
    name: query.name,
    status: query.status,
  });
}

/** `POST /datasets`: a draft; the workspace must exist (422) and the name be free in it (409). */
export async function createDataset(database: Database, body: DatasetCreateBody): Promise<DatasetRow> {
  const { db } = database;
  if (!(await workspaceExists(db, body.workspace_id))) {
    throw new UnprocessableError(`Workspace with id \`${body.workspace_id}\` not found`);
  }
  if (await findDatasetByName(db, body.workspace_id, body.name)) throw duplicateName(body.name, body.workspace_id);
  const now = nowTimestamp();
  return db.transaction().execute(async (trx) => {
    const created = await insertDataset(trx, {
      id: newId(),
      name: body.name,
      guidelines: body.guidelines ?? null,
      allow_extra_metadata: toFlag(body.allow_extra_metadata ?? true),
      status: 'draft',
      distribution: toJson({ strategy: 'overlap', min_submitted: body.distribution?.min_submitted ?? 1 }),
      metadata: body.metadata === undefined || body.metadata === null ? null : toJson(body.metadata),
      workspace_id: body.workspace_id,
      last_activity_at: now,
      inserted_at: now,
      updated_at: now,
    });
    await raiseWebhookEvents(trx, 'dataset.created', async () => [await datasetEventData(trx, created)]);
    return created;
  });
}

/**
 * `PATCH /datasets/{id}`: `metadata` and `distribution` are shallow-merged into the stored
 * objects; a new `min_submitted` recomputes every record's status in the same transaction
 * (contract §6.1; accepted even when responses exist, as 2.8.0 does) and queues each record's
 * `record.updated` (and `record.completed`) for webhooks, after `dataset.updated`.
 */
export async function updateDataset(database: Database, dataset: DatasetRow, body: DatasetUpdateBody): Promise<DatasetRow> {
  return database.db.transaction().execute(async (trx) => {
    const changes: Partial<DatasetRow> = {};
    if (body.name !== undefined && body.name !== dataset.name) {
      if (await findDatasetByName(trx, dataset.workspace_id, body.name)) throw duplicateName(body.name, dataset.workspace_id);
      changes.name = body.name;
    }
    if (body.guidelines !== undefined) changes.guidelines = body.guidelines;
    if (body.allow_extra_metadata !== undefined) changes.allow_extra_metadata = toFlag(body.allow_extra_metadata);
    if (body.metadata !== undefined) {
      const stored = fromNullableJson<Record<string, unknown>>(dataset.metadata) ?? {};
      changes.metadata = body.metadata === null ? null : toJson({ ...stored, ...body.metadata });
    }
    if (body.distribution !== undefined) {
      const stored = fromJson<Record<string, unknown>>(dataset.distribution);
      const merged: Record<string, unknown> = { ...stored, strategy: body.distribution.strategy };
      if (body.distribution.min_submitted !== undefined) merged.min_submitted = body.distribution.min_submitted;
      changes.distribution = toJson(merged);
    }
    const now = nowTimestamp();
    changes.updated_at = now;
    changes.last_activity_at = now;
    await updateDatasetRow(trx, dataset.id, changes);
    const updated = { ...dataset, ...changes };
    await raiseWebhookEvents(trx, 'dataset.updated', async () => [await datasetEventData(trx, updated)]);
    if (minSubmitted(updated) !== minSubmitted(dataset)) {
      await applyDistributionToRecords(trx, updated);
      await queueRecordStatusEvents(trx, updated);
    }
    return updated;
  });
}

/** `DELETE /datasets/{id}`: rows cascade; the text index, metadata and vector indexes go too. */
export async function deleteDataset(database: Database, dataset: DatasetRow): Promise<DatasetRow> {
  const { dialect } = database;
  await database.db.transaction().execute(async (trx) => {
    await raiseWebhookEvents(trx, 'dataset.deleted', async () => [await datasetEventData(trx, dataset)]);
    for (const property of await listMetadataProperties(trx, dataset.id)) await dropMetadataIndex(trx, dialect, property.id);
    for (const settings of await listVectorSettings(trx, dataset.id)) await dropVectorIndex(trx, settings.id);
    await deleteDatasetRow(trx, dataset.id);
    if (dialect === 'postgres') await dropTextIndex(trx, dialect, dataset.id);
    else await enqueueTextIndexDrop(trx, dataset.id); // SQLite: the text index file is the indexer's to write
  });
  database.textIndexer.wake();
  return dataset;
}

/** `PUT /datasets/{id}/publish` (contract §6.2): needs ≥1 field and ≥1 required question; creates the text index. */
export async function publishDataset(database: Database, dataset: DatasetRow): Promise<DatasetRow> {
  return database.db.transaction().execute(async (trx) => {
    const current = (await findDatasetById(trx, dataset.id)) ?? dataset;
    if (current.status === 'ready') throw new UnprocessableError('Dataset has already been published');
    if ((await countFields(trx, dataset.id)) === 0) throw new UnprocessableError('Dataset cannot be published without fields');
    if ((await countRequiredQuestions(trx, dataset.id)) === 0) {
      throw new UnprocessableError('Dataset cannot be published without required questions');
    }
    const now = nowTimestamp();
    const changes = { status: 'ready' as const, updated_at: now, last_activity_at: now };
    await updateDatasetRow(trx, dataset.id, changes);
    // SQLite: the indexer creates the table with the dataset's first records (text-index-drain.ts).
    if (database.dialect === 'postgres') await createTextIndex(trx, database.dialect, dataset.id, await listFields(trx, dataset.id));
    const published = { ...current, ...changes };
    await raiseWebhookEvents(trx, 'dataset.published', async () => [await datasetEventData(trx, published)]);
    return published;
  });
}

/** `GET /datasets/{id}/progress` (contract §2.4, §6.1). */
export async function getDatasetProgress(database: Database, dataset: DatasetRow) {
  const users = (await listDatasetUsernames(database.db, dataset.id)).map((username) => ({ username }));
  if (dataset.status === 'draft') return { total: 0, completed: 0, pending: 0, users };
  const counts = await countRecordsByStatus(database.db, dataset.id);
  return { total: counts.pending + counts.completed, completed: counts.completed, pending: counts.pending, users };
}

/** `GET /datasets/{id}/users/progress`: each user's responses by record status, then response status. */
export async function getDatasetUsersProgress(database: Database, dataset: DatasetRow) {
  const byUser = new Map<string, { username: string; completed: StatusCounts; pending: StatusCounts }>();
  for (const row of await countResponsesByUserAndStatus(database.db, dataset.id)) {
    let entry = byUser.get(row.username);
    if (!entry) {
      entry = { username: row.username, completed: emptyCounts(), pending: emptyCounts() };
      byUser.set(row.username, entry);
    }
    entry[row.record_status][row.response_status] += row.n;
  }
  return { users: [...byUser.values()] };
}

interface StatusCounts {
  submitted: number;
  discarded: number;
  draft: number;
}
const emptyCounts = (): StatusCounts => ({ submitted: 0, discarded: 0, draft: 0 });

/** `GET /me/datasets/{id}/metrics`: pending = records minus the caller's responses. */
export async function getUserDatasetMetrics(database: Database, dataset: DatasetRow, user: UserRow) {
  const total = await countRecords(database.db, dataset.id);
  const mine = await countUserResponsesByStatus(database.db, dataset.id, user.id);
  return {
    responses: {
      total,
      submitted: mine.submitted,
      discarded: mine.discarded,
      draft: mine.draft,
      pending: total - mine.submitted - mine.discarded - mine.draft,
    },
  };
}
