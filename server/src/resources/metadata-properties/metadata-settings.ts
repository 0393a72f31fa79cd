import { checkArray, checkInteger, checkNumber, fail, type Loc } from '../../lib/input-check.js';
import { fromJson } from '../../storage/json.js';

/** Metadata property settings as stored and output (contract §3.4). */
export type MetadataSettings =
  | { type: 'terms'; values: unknown[] | null }
  | { type: 'integer'; min: number | null; max: number | null }
  | { type: 'float'; min: number | null; max: number | null };

export type MetadataType = MetadataSettings['type'];

export function readMetadataSettings(stored: unknown): MetadataSettings {
  return fromJson<MetadataSettings>(stored);
}

/** Terms: `values` null or 1..250 items of any JSON type. Numbers: `min < max` when both set. */
export function parseMetadataSettingsCreate(raw: Record<string, unknown>, baseLoc: Loc = ['body', 'settings']): MetadataSettings {
  const type = raw.type as MetadataType;
  const loc = [...baseLoc, type];
  if (type === 'terms') {
    return { type, values: checkArray(raw, 'values', loc, { optional: true, nullable: true, min: 1, max: 250 }) ?? null };
  }
  const check = type === 'integer' ? checkInteger : checkNumber;
  const min = check(raw, 'min', loc, { optional: true, nullable: true }) ?? null;
  const max = check(raw, 'max', loc, { optional: true, nullable: true }) ?? null;
  if (min !== null && max !== null && min >= max) {
    fail('value_error', loc, `Value error, 'min' (${pyNumber(min, type)}) must be lower than 'max' (${pyNumber(max, type)})`);
  }
  return { type, min, max };
}

/** How Python prints the bound: floats keep a fractional part (`1.0`). */
function pyNumber(value: number, type: MetadataType): string {
  return type === 'float' && Number.isInteger(value) ? `${value}.0` : String(value);
}
