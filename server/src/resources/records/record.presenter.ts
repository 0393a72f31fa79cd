import { presentTimestamp } from '../../lib/time.js';
import { fromJson, fromNullableJson } from '../../storage/json.js';
import type { RecordRow } from '../../storage/tables.js';
import { presentResponse } from '../responses/response.presenter.js';
import { presentValidation } from '../review/validation.presenter.js';
import { presentSuggestion } from '../suggestions/suggestion.presenter.js';
import type { RecordRelations } from './load-record-relations.js';
import { visibleSuggestions, type RecordVisibility } from './record-visibility.js';

export interface PresentRecordOptions {
  /** What the caller may see (record-visibility.ts); omitted = everything (owners, admins, writes). */
  visibility?: RecordVisibility;
}

/**
 * Record JSON (contract §3.6). Relationship keys appear only when they were loaded, i.e. included.
 */
export function presentRecord(row: Omit<RecordRow, 'rid'>, relations: RecordRelations = {}, options: PresentRecordOptions = {}) {
  return presentParsedRecord(row, fromJson(row.fields), fromNullableJson(row.metadata), relations, options);
}

/** presentRecord for a row whose fields and metadata are at hand parsed (a write's own records). */
export function presentParsedRecord(
  row: Omit<RecordRow, 'rid' | 'fields' | 'metadata'>,
  fields: Record<string, unknown>,
  parsedMetadata: Record<string, unknown> | null,
  relations: RecordRelations = {},
  options: PresentRecordOptions = {},
) {
  const { metadataKeys, hiddenQuestions } = options.visibility ?? {};
  let metadata = parsedMetadata;
  if (metadata && metadataKeys) {
    metadata = Object.fromEntries(Object.entries(metadata).filter(([key]) => metadataKeys.has(key)));
  }
  return {
    id: row.id,
    status: row.status,
    fields,
    metadata,
    external_id: row.external_id,
    ...(relations.responses ? { responses: relations.responses.map((r) => presentResponse(r, hiddenQuestions)) } : {}),
    ...(relations.suggestions ? { suggestions: visibleSuggestions(relations.suggestions, hiddenQuestions).map(presentSuggestion) } : {}),
    ...(relations.vectors ? { vectors: relations.vectors } : {}),
    ...(relations.validation ? { validation: presentValidation(relations.validation) } : {}),
    dataset_id: row.dataset_id,
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}

export type RecordJson = ReturnType<typeof presentRecord>;
