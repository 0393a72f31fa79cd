import type { MetadataPropertyCreateBody, MetadataPropertyUpdateBody } from '@scholia/shared/contract';
import { ConflictError, NotFoundError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { nowTimestamp } from '../../lib/time.js';
import type { Database } from '../../storage/dialect.js';
import { toFlag, toJson } from '../../storage/json.js';
import {
  countMetadataValues,
  createMetadataIndex,
  deleteMetadataProperty as deleteMetadataPropertyRow,
  dropMetadataIndex,
  findMetadataPropertyById,
  findMetadataPropertyByName,
  insertMetadataProperty,
  metadataNumericRange,
  updateMetadataProperty as updateMetadataPropertyRow,
} from '../../storage/repositories/dataset-settings.repository.js';
import type { DatasetRow, MetadataPropertyRow } from '../../storage/tables.js';
import { parseMetadataSettingsCreate, readMetadataSettings } from './metadata-settings.js';

const FLOAT_METRICS_PRECISION = 5;

export async function getMetadataPropertyOrThrow(database: Database, id: string): Promise<MetadataPropertyRow> {
  const property = await findMetadataPropertyById(database.db, id);
  if (!property) throw new NotFoundError(`MetadataProperty with id \`${id}\` not found`);
  return property;
}

/** Allowed on published datasets too; adds the SQLite expression index used by metadata filters. */
export async function createMetadataProperty(
  database: Database,
  dataset: DatasetRow,
  body: MetadataPropertyCreateBody,
): Promise<MetadataPropertyRow> {
  const settings = parseMetadataSettingsCreate(body.settings as Record<string, unknown>);
  if (await findMetadataPropertyByName(database.db, dataset.id, body.name)) {
    throw new ConflictError(`Metadata property with name \`${body.name}\` already exists for dataset with id \`${dataset.id}\``);
  }
  const now = nowTimestamp();
  const row: MetadataPropertyRow = {
    id: newId(),
    dataset_id: dataset.id,
    name: body.name,
    title: body.title,
    settings: toJson(settings),
    visible_for_annotators: toFlag(body.visible_for_annotators ?? true),
    inserted_at: now,
    updated_at: now,
  };
  await database.db.transaction().execute(async (trx) => {
    await insertMetadataProperty(trx, row);
    await createMetadataIndex(trx, database.dialect, row);
  });
  return row;
}

/** Contract §2.7 quirk: an omitted `visible_for_annotators` hides the property. */
export async function updateMetadataProperty(
  database: Database,
  property: MetadataPropertyRow,
  body: MetadataPropertyUpdateBody,
): Promise<MetadataPropertyRow> {
  const changes = {
    title: body.title ?? property.title,
    visible_for_annotators: toFlag(body.visible_for_annotators ?? false),
    updated_at: nowTimestamp(),
  };
  await updateMetadataPropertyRow(database.db, property.id, changes);
  return { ...property, ...changes };
}

export async function deleteMetadataProperty(database: Database, property: MetadataPropertyRow): Promise<MetadataPropertyRow> {
  await database.db.transaction().execute(async (trx) => {
    await deleteMetadataPropertyRow(trx, property.id);
    await dropMetadataIndex(trx, database.dialect, property.id);
  });
  return property;
}

/**
 * `GET /metadata-properties/{id}/metrics` over the dataset's records: terms → counts per value
 * (list values count each element; most frequent first), numbers → min/max (floats rounded to 5 places).
 */
export async function getMetadataPropertyMetrics(database: Database, property: MetadataPropertyRow) {
  const settings = readMetadataSettings(property.settings);
  if (settings.type === 'terms') {
    const counts = new Map<string, { term: unknown; count: number }>();
    const add = (term: unknown, count: number) => {
      if (term === null || term === undefined) return;
      const key = JSON.stringify(term);
      const entry = counts.get(key) ?? { term, count: 0 };
      entry.count += count;
      counts.set(key, entry);
    };
    for (const { json, count } of await countMetadataValues(database.db, database.dialect, property.dataset_id, property.name)) {
      const value: unknown = JSON.parse(json);
      if (Array.isArray(value)) for (const item of new Set(value.map((v) => JSON.stringify(v)))) add(JSON.parse(item), count);
      else add(value, count);
    }
    const values = [...counts.values()].sort((a, b) => b.count - a.count || compareTerms(a.term, b.term));
    return { type: 'terms' as const, total: values.reduce((sum, v) => sum + v.count, 0), values };
  }
  const { min, max } = await metadataNumericRange(database.db, database.dialect, property.dataset_id, property.name);
  const round = (n: number | null) => (n === null || settings.type !== 'float' ? n : roundHalfEven(n, FLOAT_METRICS_PRECISION));
  return { type: settings.type, min: round(min), max: round(max) };
}

function compareTerms(a: unknown, b: unknown): number {
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Python's `round(x, n)`: nearest, ties to even, on the decimal representation. */
function roundHalfEven(value: number, digits: number): number {
  const factor = 10 ** digits;
  const scaled = value * factor;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  const epsilon = 1e-9;
  let rounded: number;
  if (Math.abs(diff - 0.5) < epsilon) rounded = floor % 2 === 0 ? floor : floor + 1;
  else rounded = Math.round(scaled);
  return Number((rounded / factor).toFixed(digits));
}
