import type { Kysely } from 'kysely';
import type { FieldRow, MetadataPropertyRow, QuestionRow, Tables, VectorSettingsRow } from '../tables.js';

type Db = Kysely<Tables>;

/** Read side of a dataset's settings entities, each in creation order (contract §0). */
export const listFields = (db: Db, datasetId: string): Promise<FieldRow[]> =>
  db.selectFrom('fields').selectAll().where('dataset_id', '=', datasetId).orderBy('inserted_at').execute();

export const listQuestions = (db: Db, datasetId: string): Promise<QuestionRow[]> =>
  db.selectFrom('questions').selectAll().where('dataset_id', '=', datasetId).orderBy('inserted_at').execute();

export const listMetadataProperties = (db: Db, datasetId: string): Promise<MetadataPropertyRow[]> =>
  db.selectFrom('metadata_properties').selectAll().where('dataset_id', '=', datasetId).orderBy('inserted_at').execute();

export const listVectorSettings = (db: Db, datasetId: string): Promise<VectorSettingsRow[]> =>
  db.selectFrom('vector_settings').selectAll().where('dataset_id', '=', datasetId).orderBy('inserted_at').execute();
