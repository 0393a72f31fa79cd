import { presentTimestamp } from '../../lib/time.js';
import type { VectorSettingsRow } from '../../storage/tables.js';

/** Vector settings JSON (contract §3.5). */
export function presentVectorSettings(row: VectorSettingsRow) {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    dimensions: Number(row.dimensions),
    dataset_id: row.dataset_id,
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}
