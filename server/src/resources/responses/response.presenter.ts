import { presentTimestamp } from '../../lib/time.js';
import { fromNullableJson } from '../../storage/json.js';
import type { ResponseRow } from '../../storage/tables.js';

/** Response JSON (contract §3.7). */
export function presentResponse(row: ResponseRow) {
  return {
    id: row.id,
    values: fromNullableJson<Record<string, { value: unknown }>>(row.values),
    status: row.status,
    record_id: row.record_id,
    user_id: row.user_id,
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}
