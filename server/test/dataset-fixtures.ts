import type { Kysely } from 'kysely';
import { newId } from '../src/lib/ids.js';
import { nowTimestamp } from '../src/lib/time.js';
import { createTextIndex } from '../src/storage/search/text-index.js';
import type { DialectName } from '../src/storage/dialect.js';
import type { Tables } from '../src/storage/tables.js';

/**
 * Published datasets for record / response / suggestion tests, written straight into storage
 * (one transaction) so these tests do not depend on the dataset-settings routes.
 */

export interface FieldSpec {
  name: string;
  required?: boolean;
  settings?: Record<string, unknown>;
}

export interface QuestionSpec {
  name: string;
  required?: boolean;
  settings: Record<string, unknown>;
}

export interface MetadataSpec {
  name: string;
  settings: Record<string, unknown>;
  visible_for_annotators?: boolean;
}

export interface DatasetSpec {
  workspaceId: string;
  name?: string;
  status?: 'draft' | 'ready';
  minSubmitted?: number;
  allowExtraMetadata?: boolean;
  fields?: FieldSpec[];
  questions?: QuestionSpec[];
  metadata?: MetadataSpec[];
  vectors?: { name: string; dimensions: number }[];
}

export interface SeededDataset {
  id: string;
  fieldIds: Record<string, string>;
  questionIds: Record<string, string>;
  vectorIds: Record<string, string>;
}

const labelOptions = (values: string[]) => values.map((value) => ({ value, text: value, description: null }));

/** Every question type, for value-check tests. `label` is the only required one. */
export const ALL_QUESTIONS: QuestionSpec[] = [
  {
    name: 'label',
    required: true,
    settings: { type: 'label_selection', options: labelOptions(['positive', 'negative', 'neutral']), visible_options: 3 },
  },
  { name: 'comment', settings: { type: 'text', use_markdown: false } },
  {
    name: 'topics',
    settings: { type: 'multi_label_selection', options: labelOptions(['sports', 'politics', 'tech']), visible_options: 3, options_order: 'natural' },
  },
  { name: 'rating', settings: { type: 'rating', options: [1, 2, 3, 4, 5].map((value) => ({ value })) } },
  { name: 'ranking', settings: { type: 'ranking', options: labelOptions(['a', 'b', 'c']) } },
  {
    name: 'entities',
    settings: {
      type: 'span',
      field: 'text',
      options: labelOptions(['PER', 'ORG', 'LOC']),
      visible_options: 3,
      allow_overlapping: false,
      allow_character_annotation: true,
    },
  },
];

export const DEFAULT_FIELDS: FieldSpec[] = [
  { name: 'text', required: true },
  { name: 'context', required: false },
];

export async function seedDataset(db: Kysely<Tables>, dialect: DialectName, spec: DatasetSpec): Promise<SeededDataset> {
  const id = newId();
  const fields = spec.fields ?? DEFAULT_FIELDS;
  const questions = spec.questions ?? ALL_QUESTIONS;
  const seeded: SeededDataset = { id, fieldIds: {}, questionIds: {}, vectorIds: {} };
  await db.transaction().execute(async (trx) => {
    const now = nowTimestamp();
    await trx
      .insertInto('datasets')
      .values({
        id,
        name: spec.name ?? `dataset-${id.slice(-12)}`,
        guidelines: null,
        allow_extra_metadata: spec.allowExtraMetadata === false ? 0 : 1,
        status: spec.status ?? 'ready',
        distribution: JSON.stringify({ strategy: 'overlap', min_submitted: spec.minSubmitted ?? 1 }),
        metadata: null,
        workspace_id: spec.workspaceId,
        last_activity_at: now,
        inserted_at: now,
        updated_at: now,
      })
      .execute();
    for (const field of fields) {
      const fieldId = newId();
      seeded.fieldIds[field.name] = fieldId;
      const t = nowTimestamp();
      await trx
        .insertInto('fields')
        .values({
          id: fieldId,
          dataset_id: id,
          name: field.name,
          title: field.name,
          required: field.required ? 1 : 0,
          settings: JSON.stringify(field.settings ?? { type: 'text', use_markdown: false }),
          inserted_at: t,
          updated_at: t,
        })
        .execute();
    }
    for (const question of questions) {
      const questionId = newId();
      seeded.questionIds[question.name] = questionId;
      const t = nowTimestamp();
      await trx
        .insertInto('questions')
        .values({
          id: questionId,
          dataset_id: id,
          name: question.name,
          title: question.name,
          description: null,
          required: question.required ? 1 : 0,
          settings: JSON.stringify(question.settings),
          visible_for_annotators: 1,
          inserted_at: t,
          updated_at: t,
        })
        .execute();
    }
    for (const property of spec.metadata ?? []) {
      const t = nowTimestamp();
      await trx
        .insertInto('metadata_properties')
        .values({
          id: newId(),
          dataset_id: id,
          name: property.name,
          title: property.name,
          settings: JSON.stringify(property.settings),
          visible_for_annotators: property.visible_for_annotators === false ? 0 : 1,
          inserted_at: t,
          updated_at: t,
        })
        .execute();
    }
    for (const vector of spec.vectors ?? []) {
      const vectorId = newId();
      seeded.vectorIds[vector.name] = vectorId;
      const t = nowTimestamp();
      await trx
        .insertInto('vector_settings')
        .values({ id: vectorId, dataset_id: id, name: vector.name, title: vector.name, dimensions: vector.dimensions, inserted_at: t, updated_at: t })
        .execute();
    }
    if ((spec.status ?? 'ready') === 'ready') {
      await createTextIndex(trx, dialect, id, fields.map((f) => ({ name: f.name, settings: (f.settings ?? { type: 'text' }) as { type: string } })));
    }
  });
  return seeded;
}
