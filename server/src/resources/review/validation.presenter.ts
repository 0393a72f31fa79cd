import { presentTimestamp } from '../../lib/time.js';
import { fromJson } from '../../storage/json.js';
import type { StoredValidation } from '../../storage/repositories/record-validations.repository.js';

/**
 * A record's final answer as owners and admins read it (Scholia extension `validation` of a
 * record). The record's own `status` stays pending/completed: the SDK accepts no other value.
 * A response written after the validation leaves the final answer in place (a reviewer decided
 * it) but marks it `stale`, so reviewers find the records whose answers moved under them.
 */
export function presentValidation(row: StoredValidation) {
  return {
    status: 'validated' as const,
    values: fromJson<Record<string, { value: unknown }>>(row.values),
    validated_by: row.user_id,
    stale: row.stale,
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}

export type ValidationJson = ReturnType<typeof presentValidation>;
