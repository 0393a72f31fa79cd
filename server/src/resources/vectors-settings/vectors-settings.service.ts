import type { VectorSettingsCreateBody, VectorSettingsUpdateBody } from '@scholia/shared/contract';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import type { Database } from '../../storage/dialect.js';
import {
  countVectorSettings,
  deleteVectorSettings as deleteVectorSettingsRow,
  findVectorSettingsById,
  findVectorSettingsByName,
  insertVectorSettings,
  updateVectorSettings as updateVectorSettingsRow,
} from '../../storage/repositories/dataset-settings.repository.js';
import { createVectorIndex, dropVectorIndex } from '../../storage/search/pgvector.js';
import type { DatasetRow, VectorSettingsRow } from '../../storage/tables.js';

/** Contract §6.4. */
export const MAX_VECTOR_SETTINGS_PER_DATASET = 5;

export async function getVectorSettingsOrThrow(database: Database, id: string): Promise<VectorSettingsRow> {
  const settings = await findVectorSettingsById(database.db, id);
  if (!settings) throw new NotFoundError(`VectorSettings with id \`${id}\` not found`);
  return settings;
}

/** At most 5 per dataset (checked before the name); allowed after publish. */
export async function createVectorSettings(
  database: Database,
  dataset: DatasetRow,
  body: VectorSettingsCreateBody,
): Promise<VectorSettingsRow> {
  const { db } = database;
  if ((await countVectorSettings(db, dataset.id)) >= MAX_VECTOR_SETTINGS_PER_DATASET) {
    throw new UnprocessableError(`The maximum number of vector settings has been reached for dataset with id \`${dataset.id}\``);
  }
  if (await findVectorSettingsByName(db, dataset.id, body.name)) {
    throw new ConflictError(`Vector settings with name \`${body.name}\` already exists for dataset with id \`${dataset.id}\``);
  }
  const now = nowTimestamp();
  const settings = await insertVectorSettings(db, {
    id: newId(),
    dataset_id: dataset.id,
    name: body.name,
    title: body.title,
    dimensions: body.dimensions,
    inserted_at: now,
    updated_at: now,
  });
  await createVectorIndex(db, settings);
  return settings;
}

export async function updateVectorSettings(
  database: Database,
  settings: VectorSettingsRow,
  body: VectorSettingsUpdateBody,
): Promise<VectorSettingsRow> {
  const changes = { title: body.title, updated_at: nowTimestamp() };
  await updateVectorSettingsRow(database.db, settings.id, changes);
  return { ...settings, ...changes };
}

/** Vectors stored under these settings cascade. */
export async function deleteVectorSettings(database: Database, settings: VectorSettingsRow): Promise<VectorSettingsRow> {
  await deleteVectorSettingsRow(database.db, settings.id);
  await dropVectorIndex(database.db, settings.id);
  return settings;
}
