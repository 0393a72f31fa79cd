import type SQLite from 'better-sqlite3';
import { readSnapshot, readSqliteSnapshot, type SnapshotSource } from './dataset-snapshot.js';
import { ChampionsBuilder, type ChampionLimits, type ChampionRanking, type TextChampions } from './text-champions-builder.js';
import type { TextIndexField } from './text-index.js';

/** Champion lists and the `record_set_versions` version they were built at. */
export interface VersionedChampions extends TextChampions {
  version: number;
}

export interface ChampionsRequest {
  datasetId: string;
  fields: TextIndexField[];
  ranking: ChampionRanking;
  limits: ChampionLimits;
}

/** Two passes (a sample, then ranking) over the fields of one snapshot of the records. */
export function readSqliteTextChampions(sqlite: SQLite.Database, request: ChampionsRequest): VersionedChampions {
  const builder = new ChampionsBuilder(request.fields, request.ranking, request.limits);
  const version = readSqliteSnapshot(sqlite, request.datasetId, 'fields', 2, (pass, rows) => (pass === 0 ? builder.sample(rows) : builder.rank(rows)));
  return { ...builder.build(), version };
}

/** The same from a worker thread's own connection (SQLite file or PostgreSQL). */
export async function readTextChampions(source: SnapshotSource, request: ChampionsRequest): Promise<VersionedChampions> {
  const builder = new ChampionsBuilder(request.fields, request.ranking, request.limits);
  const version = await readSnapshot(source, request.datasetId, 'fields', 2, (pass, rows) => (pass === 0 ? builder.sample(rows) : builder.rank(rows)));
  return { ...builder.build(), version };
}
