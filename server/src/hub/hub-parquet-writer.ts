import { parquetWriteBuffer } from 'hyparquet-writer';

/**
 * A column type of an exported parquet file, with its Hugging Face `datasets` feature, so that
 * `load_dataset` / `Dataset.from_hub` read values back with the right types (hub-contract §3, §5).
 */
export type ColumnType =
  | { kind: 'string' }
  | { kind: 'int' }
  | { kind: 'float' }
  | { kind: 'bool' }
  | { kind: 'image' }
  | { kind: 'list'; item: ColumnType }
  | { kind: 'struct'; fields: [string, ColumnType][] };

export interface ExportColumn {
  name: string;
  type: ColumnType;
  /** One value per row (JSON values; converted here). */
  values: unknown[];
}

export const T = {
  string: { kind: 'string' } as ColumnType,
  int: { kind: 'int' } as ColumnType,
  float: { kind: 'float' } as ColumnType,
  bool: { kind: 'bool' } as ColumnType,
  image: { kind: 'image' } as ColumnType,
  list: (item: ColumnType): ColumnType => ({ kind: 'list', item }),
  struct: (fields: [string, ColumnType][]): ColumnType => ({ kind: 'struct', fields }),
};

/**
 * The `datasets` feature of a column type (hub-contract §1 feature forms). Lists are written as
 * `Sequence`: `datasets` 3.x (what the argilla 2.8 SDK installs) cannot read the newer `List`
 * form, and `datasets` 4 still reads `Sequence` (tests/sdk/test_hub_export_from_hub.py).
 */
export function featureOf(type: ColumnType): unknown {
  switch (type.kind) {
    case 'string':
      return { dtype: 'string', _type: 'Value' };
    case 'int':
      return { dtype: 'int64', _type: 'Value' };
    case 'float':
      return { dtype: 'float64', _type: 'Value' };
    case 'bool':
      return { dtype: 'bool', _type: 'Value' };
    case 'image':
      return { _type: 'Image' };
    case 'list':
      // A list of structs (chat) is the one-element array form: `Sequence` of a struct means a
      // struct of lists in `datasets` 3.x.
      return type.item.kind === 'struct' ? [featureOf(type.item)] : { feature: featureOf(type.item), _type: 'Sequence' };
    case 'struct':
      return Object.fromEntries(type.fields.map(([name, t]) => [name, featureOf(t)]));
  }
}

type SchemaElement = Record<string, unknown>;

function schemaOf(name: string, type: ColumnType, out: SchemaElement[]): void {
  switch (type.kind) {
    case 'string':
      out.push({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
      return;
    case 'int':
      out.push({ name, type: 'INT64', repetition_type: 'OPTIONAL' });
      return;
    case 'float':
      out.push({ name, type: 'DOUBLE', repetition_type: 'OPTIONAL' });
      return;
    case 'bool':
      out.push({ name, type: 'BOOLEAN', repetition_type: 'OPTIONAL' });
      return;
    case 'image':
      out.push({ name, repetition_type: 'OPTIONAL', num_children: 2 });
      out.push({ name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' });
      out.push({ name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' });
      return;
    case 'list':
      out.push({ name, repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' });
      out.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
      schemaOf('element', type.item, out);
      return;
    case 'struct':
      out.push({ name, repetition_type: 'OPTIONAL', num_children: type.fields.length });
      for (const [child, t] of type.fields) schemaOf(child, t, out);
      return;
  }
}

/** A JSON value in the shape hyparquet-writer expects for the type (BigInt ints, bytes for images). */
export function toParquetValue(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'int': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? BigInt(Math.trunc(n)) : null;
    }
    case 'float': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? n : null;
    }
    case 'bool':
      return Boolean(value);
    case 'image':
      return imageCell(value);
    case 'list':
      return (Array.isArray(value) ? value : [value]).map((item) => toParquetValue(item, type.item));
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return null;
      const object = value as Record<string, unknown>;
      return Object.fromEntries(type.fields.map(([name, t]) => [name, toParquetValue(object[name], t)]));
    }
  }
}

/** `data:<mime>;base64,…` → Image struct `{bytes, path: null}`; anything else keeps its text as path. */
function imageCell(value: unknown): { bytes: Uint8Array | null; path: string | null } | null {
  if (typeof value !== 'string') return null;
  const match = /^data:[^;,]*(;base64)?,(.*)$/s.exec(value);
  if (!match) return { bytes: null, path: value };
  const bytes = match[1] ? Buffer.from(match[2], 'base64') : Buffer.from(decodeURIComponent(match[2]), 'utf8');
  return { bytes: new Uint8Array(bytes), path: null };
}

/**
 * Writes the columns as one parquet file (snappy) with the `huggingface` key-value metadata
 * `{"info":{"features":…}}` that `datasets` reads to restore features (ClassLabel-free here).
 */
export function writeExportParquet(columns: ExportColumn[]): Uint8Array {
  const schema: SchemaElement[] = [{ name: 'schema', num_children: columns.length }];
  for (const column of columns) schemaOf(column.name, column.type, schema);
  const features = Object.fromEntries(columns.map((c) => [c.name, featureOf(c.type)]));
  const buffer = parquetWriteBuffer({
    columnData: columns.map((c) => ({ name: c.name, data: c.values.map((v) => toParquetValue(v, c.type)) })),
    schema: schema as never,
    kvMetadata: [{ key: 'huggingface', value: JSON.stringify({ info: { features } }) }],
    rowGroupSize: 10_000,
  });
  return new Uint8Array(buffer);
}
