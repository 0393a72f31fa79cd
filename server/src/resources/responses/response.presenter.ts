import { presentTimestamp } from '../../lib/time.js';
import { fromNullableJson } from '../../storage/json.js';
import type { ResponseRow } from '../../storage/tables.js';
import { visibleResponseValues, type HiddenQuestions } from '../records/record-visibility.js';

/** Response JSON (contract §3.7); values of `hiddenQuestions` are left out (see record-visibility). */
export function presentResponse(row: ResponseRow, hiddenQuestions?: HiddenQuestions) {
  return {
    id: row.id,
    values: visibleResponseValues(fromNullableJson<Record<string, { value: unknown }>>(row.values), hiddenQuestions),
    status: row.status,
    record_id: row.record_id,
    user_id: row.user_id,
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}

export type ResponseJson = ReturnType<typeof presentResponse>;
