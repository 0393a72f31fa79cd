import { presentTimestamp } from '../../lib/time.js';
import { fromFlag } from '../../storage/json.js';
import type { MetadataPropertyRow } from '../../storage/tables.js';
import { readMetadataSettings } from './metadata-settings.js';

/** Metadata property JSON (contract §3.4). */
export function presentMetadataProperty(row: MetadataPropertyRow) {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    settings: readMetadataSettings(row.settings),
    visible_for_annotators: fromFlag(row.visible_for_annotators),
    dataset_id: row.dataset_id,
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}
