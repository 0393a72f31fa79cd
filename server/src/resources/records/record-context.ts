import type { Kysely } from 'kysely';
import { fromFlag, fromJson } from '../../storage/json.js';
import {
  listFields,
  listMetadataProperties,
  listQuestions,
  listVectorSettings,
} from '../../storage/repositories/dataset-settings.repository.js';
import type { DatasetRow, FieldRow, Tables } from '../../storage/tables.js';
import { questionForCheck, type QuestionForCheck } from '../responses/validate-response.js';

export interface FieldForCheck {
  id: string;
  name: string;
  required: boolean;
  type: string;
  /** as stored (the text index reads it) */
  settings: FieldRow['settings'];
}

export interface MetadataPropertyForCheck {
  name: string;
  settings: { type: 'terms' | 'integer' | 'float'; values?: unknown[] | null; min?: number | null; max?: number | null };
}

export interface VectorSettingsForCheck {
  id: string;
  name: string;
  dimensions: number;
}

/** A dataset with its settings entities parsed once per request: what record writes check against. */
export interface RecordContext {
  dataset: DatasetRow;
  fields: FieldForCheck[];
  questions: QuestionForCheck[];
  questionsById: Map<string, QuestionForCheck>;
  metadataProperties: Map<string, MetadataPropertyForCheck>;
  vectorSettings: Map<string, VectorSettingsForCheck>;
  /** vector settings id → name */
  vectorSettingsNames: Map<string, string>;
}

export async function loadRecordContext(db: Kysely<Tables>, dataset: DatasetRow): Promise<RecordContext> {
  const [fields, questions, metadata, vectors] = await Promise.all([
    listFields(db, dataset.id),
    listQuestions(db, dataset.id),
    listMetadataProperties(db, dataset.id),
    listVectorSettings(db, dataset.id),
  ]);
  const checkedQuestions = questions.map(questionForCheck);
  return {
    dataset,
    fields: fields.map((f) => ({
      id: f.id,
      name: f.name,
      required: fromFlag(f.required),
      type: fromJson<{ type: string }>(f.settings).type,
      settings: f.settings,
    })),
    questions: checkedQuestions,
    questionsById: new Map(checkedQuestions.map((q) => [q.id, q])),
    metadataProperties: new Map(
      metadata.map((m) => [m.name, { name: m.name, settings: fromJson<MetadataPropertyForCheck['settings']>(m.settings) }]),
    ),
    vectorSettings: new Map(vectors.map((v) => [v.name, { id: v.id, name: v.name, dimensions: v.dimensions }])),
    vectorSettingsNames: new Map(vectors.map((v) => [v.id, v.name])),
  };
}
