import type { FieldCreateBody, FieldUpdateBody } from '@scholia/shared/contract';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import type { Database } from '../../storage/dialect.js';
import { toFlag, toJson } from '../../storage/json.js';
import {
  deleteField as deleteFieldRow,
  findFieldById,
  findFieldByName,
  insertField,
  updateField as updateFieldRow,
} from '../../storage/repositories/dataset-settings.repository.js';
import type { DatasetRow, FieldRow } from '../../storage/tables.js';
import { applyFieldSettingsUpdate, parseFieldSettingsCreate, readFieldSettings } from './field-settings.js';

export async function getFieldOrThrow(database: Database, id: string): Promise<FieldRow> {
  const field = await findFieldById(database.db, id);
  if (!field) throw new NotFoundError(`Field with id \`${id}\` not found`);
  return field;
}

/** Draft datasets only (checked before the name, contract §2.5). */
export async function createField(database: Database, dataset: DatasetRow, body: FieldCreateBody): Promise<FieldRow> {
  const settings = parseFieldSettingsCreate(body.settings as Record<string, unknown>);
  if (dataset.status === 'ready') throw new UnprocessableError('Field cannot be created for a published dataset');
  if (await findFieldByName(database.db, dataset.id, body.name)) {
    throw new ConflictError(`Field with name \`${body.name}\` already exists for dataset with id \`${dataset.id}\``);
  }
  const now = nowTimestamp();
  return insertField(database.db, {
    id: newId(),
    dataset_id: dataset.id,
    name: body.name,
    title: body.title,
    required: toFlag(body.required ?? false),
    settings: toJson(settings),
    inserted_at: now,
    updated_at: now,
  });
}

/** `title` and same-type `settings` (shallow-merged); allowed after publish. */
export async function updateField(database: Database, field: FieldRow, body: FieldUpdateBody): Promise<FieldRow> {
  const changes: Partial<Pick<FieldRow, 'title' | 'settings' | 'updated_at'>> = {};
  if (body.settings !== undefined) {
    changes.settings = toJson(applyFieldSettingsUpdate(readFieldSettings(field.settings), body.settings as Record<string, unknown>));
  }
  if (body.title !== undefined) changes.title = body.title;
  changes.updated_at = nowTimestamp();
  await updateFieldRow(database.db, field.id, changes);
  return { ...field, ...changes };
}

export async function deleteField(database: Database, dataset: DatasetRow, field: FieldRow): Promise<FieldRow> {
  if (dataset.status === 'ready') throw new UnprocessableError('Fields cannot be deleted for a published dataset');
  await deleteFieldRow(database.db, field.id);
  return field;
}
