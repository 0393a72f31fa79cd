import { presentTimestamp } from '../../lib/time.js';
import { fromJson } from '../../storage/json.js';
import type { RecordValidationRow } from '../../storage/tables.js';

/**
 * A record's final answer as owners and admins read it (Scholia extension `validation` of a
 * record). The record's own `status` stays pending/completed: the SDK accepts no other value.
 */
export function presentValidation(row: RecordValidationRow) {
  return {
    status: 'validated' as const,
    values: fromJson<Record<string, { value: unknown }>>(row.values),
    validated_by: row.user_id,
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}

export type ValidationJson = ReturnType<typeof presentValidation>;
