import { presentTimestamp } from '../../lib/time.js';
import { fromFlag } from '../../storage/json.js';
import type { FieldRow } from '../../storage/tables.js';
import { readFieldSettings } from './field-settings.js';

/** Field JSON (contract §3.2): no `description`. */
export function presentField(row: FieldRow) {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    required: fromFlag(row.required),
    settings: readFieldSettings(row.settings),
    dataset_id: row.dataset_id,
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}
