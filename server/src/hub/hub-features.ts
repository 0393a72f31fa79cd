/**
 * Hugging Face `datasets` feature descriptors (hub-contract §1 "Feature `_type` forms") and the
 * casts of the Argilla importer (hub-contract §2): ClassLabel index → name, lists recurse,
 * images → data URL (parquet bytes) or URL (viewer `src`), BigInt → number, Date → ISO string.
 */
export type Feature =
  | { _type: 'Value'; dtype: string }
  | { _type: 'ClassLabel'; names: string[] }
  | { _type: 'Image' }
  | { _type: 'Audio' }
  | { _type: 'List'; feature: Feature }
  | { _type: 'Struct'; fields: Record<string, Feature> }
  | { _type: 'Unknown' };

/** Normalises any raw feature form (Sequence/LargeList/legacy one-element array = List; object = struct). */
export function normalizeFeature(raw: unknown): Feature {
  if (Array.isArray(raw)) return { _type: 'List', feature: normalizeFeature(raw[0]) };
  if (!raw || typeof raw !== 'object') return { _type: 'Unknown' };
  const f = raw as Record<string, unknown>;
  switch (f._type) {
    case 'Value':
      return { _type: 'Value', dtype: String(f.dtype ?? 'string') };
    case 'ClassLabel':
      return { _type: 'ClassLabel', names: Array.isArray(f.names) ? f.names.map(String) : [] };
    case 'Image':
      return { _type: 'Image' };
    case 'Audio':
      return { _type: 'Audio' };
    case 'List':
    case 'Sequence':
    case 'LargeList':
      return { _type: 'List', feature: normalizeFeature(f.feature) };
    case undefined:
      return { _type: 'Struct', fields: Object.fromEntries(Object.entries(f).map(([k, v]) => [k, normalizeFeature(v)])) };
    default:
      return { _type: 'Unknown' };
  }
}

export function normalizeFeatures(raw: unknown): Record<string, Feature> {
  if (!raw || typeof raw !== 'object') return {};
  return Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, normalizeFeature(v)]));
}

/** Features of a `/rows` or `/first-rows` answer: `[{name, type}]`. */
export function featuresFromViewerList(list: unknown): Record<string, Feature> {
  if (!Array.isArray(list)) return {};
  return Object.fromEntries(
    list.map((item) => [String((item as { name: unknown }).name), normalizeFeature((item as { type: unknown }).type)]),
  );
}

/** A cell as JSON the importer can store, following its feature (undefined feature: plain conversion). */
export function castCell(value: unknown, feature: Feature | undefined): unknown {
  if (value === null || value === undefined) return null;
  switch (feature?._type) {
    case 'ClassLabel': {
      const index = toNumber(value);
      if (typeof index !== 'number') return typeof value === 'string' ? withoutNul(value) : null;
      return index < 0 || index >= feature.names.length ? null : feature.names[index];
    }
    case 'List':
      return Array.isArray(value) ? value.map((item) => castCell(item, feature.feature)) : castCell(value, feature.feature);
    case 'Struct':
      if (typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array || value instanceof Date) return plain(value);
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), castCell(v, feature.fields[k])]));
    case 'Image':
      return imageValue(value);
    default:
      return plain(value);
  }
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return undefined;
}

/**
 * Hub text may hold NUL characters, which PostgreSQL cannot store and the API refuses; they are
 * dropped so an import gives the same records on either database.
 */
function withoutNul(text: string): string {
  return text.replaceAll('\u0000', '');
}

/** BigInt, Date and bytes turned into JSON values; objects and arrays recursively. */
function plain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return withoutNul(value);
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), plain(v)]));
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

/** Parquet `{bytes, path}` → data URL; viewer `{src}` → its URL; a plain string stays. */
function imageValue(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return null;
  const image = value as { bytes?: unknown; path?: unknown; src?: unknown };
  if (typeof image.src === 'string') return image.src;
  if (image.bytes instanceof Uint8Array && image.bytes.length > 0) {
    return `data:${sniffImageType(image.bytes)};base64,${Buffer.from(image.bytes).toString('base64')}`;
  }
  if (typeof image.path === 'string' && /^(https?:|data:)/.test(image.path)) return image.path;
  return null;
}

/** MIME type from magic bytes (hub-contract §2): PNG, JPEG, GIF, WEBP; else PNG like PIL's default. */
export function sniffImageType(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.subarray(0, 12)).toString('hex');
  if (hex.startsWith('89504e47')) return 'image/png';
  if (hex.startsWith('ffd8ff')) return 'image/jpeg';
  if (hex.startsWith('47494638')) return 'image/gif';
  if (hex.startsWith('52494646') && hex.slice(16, 24) === '57454250') return 'image/webp';
  return 'image/png';
}
