import { presentTimestamp } from '../../lib/time.js';
import { fromJson, fromNullableJson } from '../../storage/json.js';
import type { SubmittedResponse } from '../../storage/repositories/records-export.repository.js';
import type { StoredRecord } from '../../storage/repositories/records.repository.js';
import type { RecordValidationRow, SuggestionRow } from '../../storage/tables.js';

/** What the columns of an export are made of: the dataset's settings, by name. */
export interface ExportLayout {
  /** `column` is the field's name, or `field.<name>` when another column has that name (a field called `id`). */
  fields: { name: string; column: string }[];
  metadata: string[];
  questions: { id: string; name: string }[];
}

const RECORD_COLUMNS = ['id', 'external_id', 'status'];
const VALIDATION_COLUMNS = ['validated_by', 'validated_at'];

export function exportLayout(settings: { fields: string[]; metadata: string[]; questions: { id: string; name: string }[] }): ExportLayout {
  const others = new Set([...RECORD_COLUMNS, ...metadataColumns(settings.metadata), ...questionColumns(settings.questions), ...VALIDATION_COLUMNS]);
  return {
    fields: settings.fields.map((name) => ({ name, column: others.has(name) ? `field.${name}` : name })),
    metadata: settings.metadata,
    questions: settings.questions,
  };
}

const metadataColumns = (names: string[]) => names.map((name) => `metadata.${name}`);
const questionColumns = (questions: { name: string }[]) =>
  questions.flatMap(({ name }) => [`${name}.suggestion`, `${name}.suggestion.score`, `${name}.suggestion.agent`, `${name}.responses`, `${name}.validated`]);

/** The relations of one page of records, as the repository reads them. */
export interface ExportPage {
  records: StoredRecord[];
  responses: SubmittedResponse[];
  suggestions: Pick<SuggestionRow, 'record_id' | 'question_id' | 'value' | 'agent' | 'score'>[];
  validations: Pick<RecordValidationRow, 'record_id' | 'values' | 'user_id' | 'updated_at'>[];
}

/** One submitted answer of a question, as the JSONL export lists it. */
export interface ExportedResponse {
  user_id: string;
  username: string;
  value: unknown;
  status: 'submitted';
}

type Answers = Record<string, { value: unknown } | undefined>;

/**
 * Column names, in order. They follow the Hub export's (`metadata.<name>`, `<question>.suggestion`,
 * `<question>.validated`…) so one reader handles both.
 */
export function exportColumns(layout: ExportLayout): string[] {
  return [
    ...RECORD_COLUMNS,
    ...layout.fields.map((f) => f.column),
    ...metadataColumns(layout.metadata),
    ...questionColumns(layout.questions),
    ...VALIDATION_COLUMNS,
  ];
}

/**
 * One row per record of the page, keyed by exportColumns: every column present, null where the
 * record has no value. `status` reads `validated` for a record with a final answer (the API keeps
 * pending/completed in `status` for the SDK; an export has no such reader to keep working).
 */
export function exportRows(layout: ExportLayout, page: ExportPage): Record<string, unknown>[] {
  const responsesOf = groupBy(page.responses, (r) => r.record_id);
  const suggestionsOf = groupBy(page.suggestions, (s) => s.record_id);
  const validationOf = new Map(page.validations.map((v) => [v.record_id, v]));

  return page.records.map((record) => {
    const fields = fromJson<Record<string, unknown>>(record.fields) ?? {};
    const metadata = fromNullableJson<Record<string, unknown>>(record.metadata) ?? {};
    const validation = validationOf.get(record.id);
    const finalAnswers = validation ? fromJson<Answers>(validation.values) : {};
    const responses = (responsesOf.get(record.id) ?? []).map((r) => ({ ...r, answers: fromNullableJson<Answers>(r.values) ?? {} }));
    const suggestions = suggestionsOf.get(record.id) ?? [];

    const row: Record<string, unknown> = {
      id: record.id,
      external_id: record.external_id,
      status: validation ? 'validated' : record.status,
    };
    for (const { name, column } of layout.fields) row[column] = fields[name] ?? null;
    for (const name of layout.metadata) row[`metadata.${name}`] = metadata[name] ?? null;
    for (const question of layout.questions) {
      const suggestion = suggestions.find((s) => s.question_id === question.id);
      row[`${question.name}.suggestion`] = suggestion ? fromJson<unknown>(suggestion.value) : null;
      row[`${question.name}.suggestion.score`] = suggestion ? fromNullableJson<unknown>(suggestion.score) : null;
      row[`${question.name}.suggestion.agent`] = suggestion?.agent ?? null;
      // Only the responses that answer this question: a submitted response may leave an optional one out.
      row[`${question.name}.responses`] = responses
        .filter((r) => r.answers[question.name] !== undefined && r.answers[question.name]?.value !== null)
        .map((r): ExportedResponse => ({ user_id: r.user_id, username: r.username, value: r.answers[question.name]?.value, status: r.status }));
      row[`${question.name}.validated`] = finalAnswers[question.name]?.value ?? null;
    }
    row.validated_by = validation?.user_id ?? null;
    row.validated_at = validation ? presentTimestamp(validation.updated_at) : null;
    return row;
  });
}

/** A row's cells in column order; a responses cell holds the submitted values only (who gave them is in the JSONL export). */
export function csvCellsOf(layout: ExportLayout, columns: string[]): (row: Record<string, unknown>) => unknown[] {
  const responseColumns = new Set(layout.questions.map(({ name }) => `${name}.responses`));
  return (row) =>
    columns.map((column) => {
      const value = row[column];
      return responseColumns.has(column) ? (value as ExportedResponse[]).map((r) => r.value) : value;
    });
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
