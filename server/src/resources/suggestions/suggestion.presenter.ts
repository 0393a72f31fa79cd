import { presentTimestamp } from '../../lib/time.js';
import { fromJson, fromNullableJson } from '../../storage/json.js';
import type { SuggestionRow } from '../../storage/tables.js';

/** Suggestion JSON (contract §3.8). */
export function presentSuggestion(row: SuggestionRow) {
  return {
    id: row.id,
    question_id: row.question_id,
    type: row.type,
    value: fromJson<unknown>(row.value),
    agent: row.agent,
    score: fromNullableJson<number | number[]>(row.score),
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}
