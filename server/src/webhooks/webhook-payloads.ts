import type { Kysely } from 'kysely';
import { presentDataset } from '../resources/datasets/dataset.presenter.js';
import { presentField } from '../resources/fields/field.presenter.js';
import { presentMetadataProperty } from '../resources/metadata-properties/metadata-property.presenter.js';
import { presentQuestion } from '../resources/questions/question.presenter.js';
import { presentRecord, type RecordJson } from '../resources/records/record.presenter.js';
import { presentResponse } from '../resources/responses/response.presenter.js';
import { presentUser } from '../resources/users/users.presenter.js';
import { presentWorkspace } from '../resources/workspaces/workspaces.presenter.js';
import { presentVectorSettings } from '../resources/vectors-settings/vector-settings.presenter.js';
import { listFields, listMetadataProperties, listQuestions, listVectorSettings } from '../storage/repositories/dataset-settings.repository.js';
import { findUserById } from '../storage/repositories/users.repository.js';
import { findWorkspaceById } from '../storage/repositories/workspaces.repository.js';
import type { DatasetRow, RecordRow, ResponseRow, Tables } from '../storage/tables.js';

/**
 * The `data` of each event, shaped as the reference's webhook payloads: a dataset with its
 * workspace and settings, a record with its dataset, a response with its record and user.
 */

type Db = Kysely<Tables>;
export type DatasetEventData = Awaited<ReturnType<typeof datasetEventData>>;

export async function datasetEventData(db: Db, dataset: DatasetRow) {
  const [workspace, fields, questions, metadataProperties, vectorSettings] = await Promise.all([
    findWorkspaceById(db, dataset.workspace_id),
    listFields(db, dataset.id),
    listQuestions(db, dataset.id),
    listMetadataProperties(db, dataset.id),
    listVectorSettings(db, dataset.id),
  ]);
  const { workspace_id: _workspaceId, metadata: _metadata, last_activity_at, inserted_at, updated_at, ...rest } = presentDataset(dataset);
  return {
    ...rest,
    workspace: workspace && presentWorkspace(workspace),
    questions: questions.map((row) => {
      const { id, name, title, description, required, settings, inserted_at, updated_at } = presentQuestion(row);
      return { id, name, title, description, required, settings, inserted_at, updated_at };
    }),
    fields: fields.map((row) => {
      const { id, name, title, required, settings, inserted_at, updated_at } = presentField(row);
      return { id, name, title, required, settings, inserted_at, updated_at };
    }),
    metadata_properties: metadataProperties.map((row) => {
      const { id, name, title, settings, visible_for_annotators, inserted_at, updated_at } = presentMetadataProperty(row);
      return { id, name, title, settings, visible_for_annotators, inserted_at, updated_at };
    }),
    vectors_settings: vectorSettings.map((row) => {
      const { id, name, title, dimensions, inserted_at, updated_at } = presentVectorSettings(row);
      return { id, name, title, dimensions, inserted_at, updated_at };
    }),
    last_activity_at,
    inserted_at,
    updated_at,
  };
}

type PresentedRecord = Pick<RecordJson, 'id' | 'status' | 'fields' | 'metadata' | 'external_id' | 'inserted_at' | 'updated_at'>;

/** From a stored row, or from a record already presented for the reply. */
export function recordEventData(record: Omit<RecordRow, 'rid'> | PresentedRecord, dataset: DatasetEventData) {
  const presented = 'submitted_count' in record ? presentRecord(record) : record;
  const { id, status, fields, metadata, external_id, inserted_at, updated_at } = presented;
  return { id, status, fields, metadata, external_id, dataset, inserted_at, updated_at };
}

export async function responseEventData(db: Db, response: ResponseRow, record: ReturnType<typeof recordEventData>) {
  const user = await findUserById(db, response.user_id);
  const { id, values, status, inserted_at, updated_at } = presentResponse(response);
  return {
    id,
    values,
    status,
    record,
    user: user && presentUser(user),
    inserted_at,
    updated_at,
  };
}
