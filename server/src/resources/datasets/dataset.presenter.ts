import { presentTimestamp } from '../../lib/time.js';
import { fromFlag, fromJson, fromNullableJson } from '../../storage/json.js';
import type { DatasetRow } from '../../storage/tables.js';

/** Dataset JSON (contract §3.1). */
export function presentDataset(row: DatasetRow) {
  const distribution = fromJson<{ strategy?: string; min_submitted?: number }>(row.distribution);
  return {
    id: row.id,
    name: row.name,
    guidelines: row.guidelines,
    allow_extra_metadata: fromFlag(row.allow_extra_metadata),
    status: row.status,
    distribution: { strategy: 'overlap' as const, min_submitted: distribution.min_submitted ?? 1 },
    metadata: fromNullableJson<Record<string, unknown>>(row.metadata),
    workspace_id: row.workspace_id,
    last_activity_at: presentTimestamp(row.last_activity_at),
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}

export type DatasetJson = ReturnType<typeof presentDataset>;
