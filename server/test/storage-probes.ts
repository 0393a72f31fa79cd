import { sql } from 'kysely';
import type { Database } from '../src/storage/dialect.js';
import { listMatchingRids } from '../src/storage/repositories/search.repository.js';
import { listFields } from '../src/storage/repositories/dataset-settings.repository.js';
import { textWords } from '../src/storage/search/text-tokenizer.js';

/** Test probes into the schema and the text index that read the same on SQLite and PostgreSQL. */

/** Whether a table exists; on SQLite in the database or in its text index file. */
export async function tableExists(database: Database, name: string): Promise<boolean> {
  const { rows } =
    database.dialect === 'postgres'
      ? await sql<{ found: string | null }>`SELECT to_regclass(${name}) AS found`.execute(database.db)
      : await sql<{ found: string }>`
          SELECT name AS found FROM main.sqlite_master WHERE name = ${name}
          UNION ALL SELECT name AS found FROM text.sqlite_master WHERE name = ${name}`.execute(database.db);
  return rows.length > 0 && rows[0].found !== null;
}

/** The CREATE INDEX text of an index, or undefined. */
export async function indexDefinition(database: Database, name: string): Promise<string | undefined> {
  const { rows } =
    database.dialect === 'postgres'
      ? await sql<{ sql: string }>`SELECT indexdef AS sql FROM pg_indexes WHERE indexname = ${name}`.execute(database.db)
      : await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ${name}`.execute(database.db);
  return rows[0]?.sql;
}

/** The part of a metadata property's index definition naming its key. */
export function metadataIndexExpression(database: Database, name: string): string {
  return database.dialect === 'postgres' ? `(metadata -> '${name}'::text)` : `json_extract(metadata, '$."${name}"')`;
}

/** rids of the dataset's text index hits for one word once its queued writes are indexed (empty when the index does not exist). */
export async function textIndexRids(database: Database, datasetId: string, term: string): Promise<number[]> {
  const [word] = textWords(term);
  if (word === undefined) return [];
  await database.textIndexer.caughtUp(datasetId);
  const columns = (await listFields(database.db, datasetId)).map((_, i) => `c${i}`);
  return listMatchingRids(database.db, { datasetId, filters: [], textMatch: { query: { kind: 'word', word }, columns }, sort: [] });
}
