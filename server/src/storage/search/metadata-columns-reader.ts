import type SQLite from 'better-sqlite3';
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

/** Records read per query. */
const LOAD_PAGE_ROWS = 5_000;

/**
 * Reads every record's values for `names`, a page of rids at a time (the caller read the version
 * before). The metadata JSON is parsed here rather than taken apart in SQL: one parse per record
 * instead of two JSON calls per property, and JSON types (booleans, lists) stay distinguishable.
 */
export function readMetadataColumns(sqlite: SQLite.Database, datasetId: string, names: string[]): MetadataColumns {
  const builders = names.map(() => new ColumnBuilder());
  const page = sqlite
    .prepare('SELECT rid, metadata FROM records WHERE dataset_id = ? AND rid > ? ORDER BY rid LIMIT ?')
    .raw();
  let rids = new Float64Array(1024);
  let count = 0;
  let after = -1;
  for (;;) {
    const rows = page.all(datasetId, after, LOAD_PAGE_ROWS) as [number, string | null][];
    if (rows.length === 0) break;
    if (count + rows.length > rids.length) rids = grown(rids, Math.max(rids.length * 2, count + rows.length));
    for (const [rid, metadata] of rows) {
      rids[count] = rid;
      const values = metadata ? (JSON.parse(metadata) as Record<string, unknown>) : {};
      for (let i = 0; i < names.length; i++) builders[i].push(count, values[names[i]]);
      count += 1;
    }
    after = rows[rows.length - 1][0];
    if (rows.length < LOAD_PAGE_ROWS) break;
  }
  return { rids: rids.slice(0, count), columns: new Map(names.map((name, i) => [name, builders[i].build(count)])) };
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
