import type { DatasetCreationPlan, HubImportMapping } from '@scholia/shared/api';
import type { HubColumn } from './hub-columns.js';
import { newQuestion, type QuestionConfig, type QuestionType } from './question-defaults.js';

/** Spec §3: hub-creation field types. */
export type FieldType = 'no mapping' | 'text' | 'image' | 'chat';
export type MetadataType = 'terms' | 'integer' | 'float';

/**
 * What a column becomes: a field of some type, a metadata property, the suggestion of a question
 * (by the question's local key) or nothing.
 */
export type ColumnRole =
  | { kind: 'field'; type: FieldType }
  | { kind: 'metadata'; type: MetadataType }
  | { kind: 'suggestion'; questionKey: string };

export interface ColumnConfig {
  column: HubColumn;
  role: ColumnRole;
  /** Field or metadata title. */
  title: string;
  /** Fields only. */
  required: boolean;
}

export interface DatasetConfiguration {
  repoId: string;
  subset: string;
  split: string;
  name: string;
  workspace: { id?: string; name: string };
  columns: ColumnConfig[];
  questions: QuestionConfig[];
}

/** Spec §5: the `id` column is never a field; it becomes external_id. */
export const ID_COLUMN = 'id';

/** Hub-contract §1 frontend defaults per column. */
export function defaultRole(column: HubColumn): ColumnRole {
  if (column.name === ID_COLUMN) return { kind: 'field', type: 'no mapping' };
  switch (column.kind) {
    case 'text':
      return { kind: 'field', type: 'text' };
    case 'image':
      return { kind: 'field', type: 'image' };
    case 'chat':
      return { kind: 'field', type: 'chat' };
    case 'integer':
      return { kind: 'metadata', type: 'integer' };
    case 'float':
      return { kind: 'metadata', type: 'float' };
    case 'classLabel':
    case 'multiLabel':
      return { kind: 'suggestion', questionKey: questionKeyFor(column.name) };
    default:
      return { kind: 'field', type: 'no mapping' };
  }
}

const questionKeyFor = (column: string) => `column:${column}`;

/**
 * The editor's starting point: every column with its default role, and one question per
 * ClassLabel column (label, or multi-label for a list of them) suggested from that column.
 */
export function buildDefaultConfiguration(input: {
  repoId: string;
  subset: string;
  split: string;
  columns: HubColumn[];
  workspace?: { id?: string; name: string };
}): DatasetConfiguration {
  const questions: QuestionConfig[] = [];
  for (const column of input.columns) {
    if ((column.kind === 'classLabel' || column.kind === 'multiLabel') && column.name !== ID_COLUMN) {
      const type: QuestionType = column.kind === 'classLabel' ? 'label_selection' : 'multi_label_selection';
      const question = newQuestion(type, { existingNames: questions.map((q) => q.name), name: column.name, textFields: [] });
      questions.push({ ...question, key: questionKeyFor(column.name), options: column.labels?.length ? column.labels.join(', ') : question.options });
    }
  }
  return {
    repoId: input.repoId,
    subset: input.subset,
    split: input.split,
    name: input.repoId.split('/').pop() ?? input.repoId,
    workspace: input.workspace ?? { name: '' },
    columns: input.columns.map((column) => ({ column, role: defaultRole(column), title: column.name, required: false })),
    questions,
  };
}

/** Columns that become fields (spec §5: no mapping and `id` excluded). */
export function mappedFields(config: DatasetConfiguration): (ColumnConfig & { role: { kind: 'field'; type: Exclude<FieldType, 'no mapping'> } })[] {
  return config.columns.filter(
    (c): c is ColumnConfig & { role: { kind: 'field'; type: Exclude<FieldType, 'no mapping'> } } =>
      c.role.kind === 'field' && c.role.type !== 'no mapping' && c.column.name !== ID_COLUMN,
  );
}

export const textFieldNames = (config: DatasetConfiguration) => mappedFields(config).filter((c) => c.role.type === 'text').map((c) => c.column.name);

export function metadataColumns(config: DatasetConfiguration): (ColumnConfig & { role: { kind: 'metadata'; type: MetadataType } })[] {
  return config.columns.filter((c): c is ColumnConfig & { role: { kind: 'metadata'; type: MetadataType } } => c.role.kind === 'metadata');
}

/** The column a question takes its suggestion from, if any. */
export function suggestionColumnOf(config: DatasetConfiguration, questionKey: string): string | undefined {
  return config.columns.find((c) => c.role.kind === 'suggestion' && c.role.questionKey === questionKey)?.column.name;
}

/** Spec §3 Hub mapping: fields, metadata and suggestions as source/target pairs plus external_id. */
export function buildMapping(config: DatasetConfiguration): HubImportMapping {
  const questions = new Map(config.questions.map((q) => [q.key, q]));
  return {
    fields: mappedFields(config).map((c) => ({ source: c.column.name, target: c.column.name })),
    metadata: metadataColumns(config).map((c) => ({ source: c.column.name, target: c.column.name })),
    suggestions: config.columns.flatMap((c) => {
      if (c.role.kind !== 'suggestion') return [];
      const question = questions.get(c.role.questionKey);
      return question ? [{ source: c.column.name, target: question.name.trim() }] : [];
    }),
    external_id: config.columns.some((c) => c.column.name === ID_COLUMN) ? ID_COLUMN : null,
  };
}

/** Settings of a new field per type (contract §3.2). */
function fieldSettings(type: Exclude<FieldType, 'no mapping'>): { type: string } & Record<string, unknown> {
  if (type === 'image') return { type: 'image' };
  if (type === 'chat') return { type: 'chat', use_markdown: true };
  return { type: 'text', use_markdown: false };
}

/** Everything the creation sequence of spec §4 sends, from a valid configuration. */
export function buildCreationPlan(config: DatasetConfiguration): DatasetCreationPlan {
  return {
    name: config.name.trim(),
    workspace: config.workspace.id ? config.workspace : { name: config.workspace.name.trim() },
    repoId: config.repoId,
    subset: config.subset,
    split: config.split,
    fields: mappedFields(config).map((c) => ({
      name: c.column.name,
      title: c.title.trim() || c.column.name,
      required: c.required,
      settings: fieldSettings(c.role.type),
    })),
    questions: config.questions.map((q) => questionPayload(q)),
    metadataProperties: metadataColumns(config).map((c) => ({
      name: c.column.name,
      title: c.title.trim() || c.column.name,
      settings: c.role.type === 'terms' ? { type: 'terms', values: null } : { type: c.role.type, min: null, max: null },
    })),
    mapping: buildMapping(config),
  };
}

/** Splits the comma-separated option text (spec §5: labels separated by commas). */
export const splitOptions = (text: string) => text.split(',').map((o) => o.trim());

function questionPayload(q: QuestionConfig) {
  const labels = splitOptions(q.options);
  const options = labels.map((label) => ({ value: label, text: label, description: null }));
  const visible = labels.length > 3 ? labels.length : null;
  let settings: { type: string } & Record<string, unknown>;
  switch (q.type) {
    case 'label_selection':
      settings = { type: q.type, options, visible_options: visible };
      break;
    case 'multi_label_selection':
      settings = { type: q.type, options, visible_options: visible, options_order: q.optionsOrder };
      break;
    case 'span':
      settings = { type: q.type, options, visible_options: visible, field: q.field, allow_overlapping: q.allowOverlapping };
      break;
    case 'ranking':
      settings = { type: q.type, options };
      break;
    case 'rating':
      settings = { type: q.type, options: labels.map((value) => ({ value: Number(value) })) };
      break;
    default:
      settings = { type: 'text', use_markdown: q.useMarkdown };
  }
  const description = q.description.trim();
  return { name: q.name.trim(), title: q.title.trim(), description: description || null, required: q.required, settings };
}
