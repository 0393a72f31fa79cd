import { sql, type Kysely } from 'kysely';
import { fromJson } from '../json.js';
import { listFields } from '../repositories/dataset-settings.repository.js';
import { createTextIndex, dropTextIndex, indexRecordTexts, type IndexedRecord } from '../search/text-index.js';
import type { Tables } from '../tables.js';
import type { MigrationContext } from './context.js';

/**
 * Text indexes hold the reference engine's words (storage/search/text-tokenizer.ts: `my_term`,
 * `can't` and `3.14` are one word each, accents kept) and, on SQLite, a `u` column every row
 * matches (what a negation subtracts from): every published dataset's index is built again from
 * its records. PostgreSQL gets the window test of sloppy phrases (text-query-postgres.ts).
 */
const PAGE = 2000;

export async function up(untyped: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const db = untyped as Kysely<Tables>;
  if (dialect === 'postgres') {
    // Whether every distinct word of `words` has a position in one window of `window` + 1
    // positions of the tsvector: the words in any order, at most `window` positions apart.
    await sql`
      CREATE OR REPLACE FUNCTION scholia_words_near(document tsvector, words text[], "window" integer) RETURNS boolean
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        WITH hits AS (
          SELECT u.lexeme, p.position FROM unnest(document) u CROSS JOIN LATERAL unnest(u.positions) p(position)
          WHERE u.lexeme = ANY(words)
        )
        SELECT EXISTS (
          SELECT 1 FROM hits s
          WHERE (SELECT count(DISTINCT h.lexeme) FROM hits h WHERE h.position BETWEEN s.position AND s.position + "window")
            = (SELECT count(DISTINCT w) FROM unnest(words) w)
        )
      $$`.execute(db);
  }
  const datasets = await db.selectFrom('datasets').select('id').where('status', '=', 'ready').execute();
  for (const { id } of datasets) {
    const fields = await listFields(db, id);
    await dropTextIndex(db, dialect, id);
    await createTextIndex(db, dialect, id, fields);
    let after = 0;
    for (;;) {
      const rows = await db.selectFrom('records').select(['rid', 'fields']).where('dataset_id', '=', id).where('rid', '>', after).orderBy('rid').limit(PAGE).execute();
      if (rows.length === 0) break;
      const records: IndexedRecord[] = rows.map((row) => ({ rid: Number(row.rid), fields: fromJson<Record<string, unknown>>(row.fields) }));
      await indexRecordTexts(db, dialect, id, fields, records, { fresh: true });
      after = records[records.length - 1].rid;
    }
  }
}
