import type SQLite from 'better-sqlite3';
import { readSnapshot, readSqliteSnapshot, type RecordPage, type SnapshotSource } from './dataset-snapshot.js';
import { grown } from './typed-arrays.js';

/**
 * One dataset's metadata values as typed arrays in rid order (storage/search/metadata-columns.ts
 * keeps them; metadata-columns.worker.ts reads them off the event loop).
 */

/** Every present value is a JSON number (missing or null: NaN). */
export interface NumberColumn {
  kind: 'number';
  values: Float64Array;
}
/** Every present value is a JSON string (missing or null: -1), coded by `codes`. */
export interface TextColumn {
  kind: 'text';
  values: Int32Array;
  codes: Map<string, number>;
}
/** Mixed, boolean or list values: searches on it stay in SQL. */
export interface OtherColumn {
  kind: 'other';
}
export type MetadataColumn = NumberColumn | TextColumn | OtherColumn;

export interface MetadataColumns {
  /** Ascending rids of the dataset's records; position i holds column values[i]. */
  rids: Float64Array;
  columns: Map<string, MetadataColumn>;
}

/** A copy of the columns and the `record_set_versions` version it was read at. */
export interface VersionedColumns extends MetadataColumns {
  version: number;
}

/**
 * SQLite: every record's values for `names` in one snapshot with its version. The metadata JSON
 * is parsed here rather than taken apart in SQL: one parse per record instead of two JSON calls
 * per property, and JSON types (booleans, lists) stay distinguishable.
 */
export function readSqliteMetadataColumns(sqlite: SQLite.Database, datasetId: string, names: string[]): VersionedColumns {
  const builder = new ColumnsBuilder(names);
  const version = readSqliteSnapshot(sqlite, datasetId, 'metadata', 1, (_, rows) => builder.addPage(rows));
  return { ...builder.build(), version };
}

/** The same from a worker thread's own connection (SQLite file or PostgreSQL). */
export async function readMetadataColumns(source: SnapshotSource, datasetId: string, names: string[]): Promise<VersionedColumns> {
  const builder = new ColumnsBuilder(names);
  const version = await readSnapshot(source, datasetId, 'metadata', 1, (_, rows) => builder.addPage(rows));
  return { ...builder.build(), version };
}

/** Collects pages of `(rid, metadata JSON)` rows in rid order into the columns. */
class ColumnsBuilder {
  private readonly builders: ColumnBuilder[];
  private rids = new Float64Array(1024);
  private count = 0;

  constructor(private readonly names: string[]) {
    this.builders = names.map(() => new ColumnBuilder());
  }

  addPage(rows: RecordPage): void {
    if (this.count + rows.length > this.rids.length) this.rids = grown(this.rids, Math.max(this.rids.length * 2, this.count + rows.length));
    for (const [rid, metadata] of rows) {
      this.rids[this.count] = rid;
      const values = metadata ? (JSON.parse(metadata) as Record<string, unknown>) : {};
      for (let i = 0; i < this.names.length; i++) this.builders[i].push(this.count, values[this.names[i]]);
      this.count += 1;
    }
  }

  build(): MetadataColumns {
    return {
      rids: this.rids.slice(0, this.count),
      columns: new Map(this.names.map((name, i) => [name, this.builders[i].build(this.count)])),
    };
  }
}

/** Collects one property's values, deciding the column's kind from what it sees. */
class ColumnBuilder {
  private numbers = new Float64Array(1024);
  private texts = new Int32Array(1024);
  private codes = new Map<string, number>();
  private sawNumber = false;
  private sawText = false;
  private sawOther = false;

  push(position: number, value: unknown): void {
    if (position >= this.numbers.length) {
      this.numbers = grown(this.numbers, this.numbers.length * 2);
      this.texts = grown(this.texts, this.texts.length * 2);
    }
    this.numbers[position] = NaN;
    this.texts[position] = -1;
    if (value === undefined || value === null) return;
    if (typeof value === 'number') {
      this.sawNumber = true;
      this.numbers[position] = value;
    } else if (typeof value === 'string') {
      this.sawText = true;
      let code = this.codes.get(value);
      if (code === undefined) this.codes.set(value, (code = this.codes.size));
      this.texts[position] = code;
    } else {
      this.sawOther = true;
    }
  }

  build(count: number): MetadataColumn {
    if (this.sawOther || (this.sawNumber && this.sawText)) return { kind: 'other' };
    if (this.sawText) return { kind: 'text', values: this.texts.slice(0, count), codes: this.codes };
    return { kind: 'number', values: this.numbers.slice(0, count) };
  }
}

/** The buffers to move (not copy) when the columns cross from a worker thread. */
export function columnBuffers(columns: MetadataColumns): ArrayBuffer[] {
  const buffers = [columns.rids.buffer as ArrayBuffer];
  for (const column of columns.columns.values()) if (column.kind !== 'other') buffers.push(column.values.buffer as ArrayBuffer);
  return buffers;
}
