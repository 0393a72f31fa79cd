import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createPrincipals, type Principals } from '../../../test/fixtures.js';
import { createSearchDataset, upsertRecords, type SearchDataset } from '../../../test/search-fixtures.js';
import { seededRandom } from '../../../test/seeded-random.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { up as indexTextAsStandardWords } from '../../storage/migrations/202611260100_index_text_as_standard_words.js';
import { up as dropPostgresFieldTextIndexes } from '../../storage/migrations/202611270500_drop_postgres_field_text_indexes.js';
import { up as dropRedundantPostgresForeignKeys } from '../../storage/migrations/202611271500_drop_redundant_postgres_foreign_keys.js';
import { dropTextIndex, textIndexTable } from '../../storage/search/text-index.js';
import type { MatchNode } from '../../storage/search/text-match.js';
import { compilePostgresMatch } from '../../storage/search/text-query-postgres.js';

/**
 * The reference engine's query syntax (`simple_query_string`, default operator AND) on a fixed
 * corpus: each query's hits as that syntax and the standard analyzer define them. Record numbers
 * are the corpus positions; `context` plays a title, `text` the body.
 */
const corpus: [context: string, text: string][] = [
  ['Argilla intro', 'argilla is a collaboration tool for AI engineers'], // 1
  ['Distilabel', 'distilabel and argilla work together'], // 2
  ['Snake case', 'use my_term in python code'], // 3
  ['Contractions', "you can't stop the signal"], // 4
  ['Numbers', 'pi is 3.14 and the code a1b2'], // 5
  ['Order', 'quick brown fox jumps over the lazy dog'], // 6
  ['Reverse', 'the dog lazy jumps over the brown quick fox'], // 7
  ['Accents', 'Café au lait à Paris'], // 8
  ['Typos', 'argila is misspelled here'], // 9
  ['quick', 'brown dog'], // 10
  ['Empty', '...'], // 11
];
const every = corpus.map((_, i) => i + 1);
const except = (...numbers: number[]) => every.filter((n) => !numbers.includes(n));

/** [query, hits (ascending), field] */
const table: [string, number[], string?][] = [
  // operators
  ['argilla', [1, 2]],
  ['argilla distilabel', [2]],
  ['argilla + distilabel', [2]],
  ['argilla | python', [1, 2, 3]],
  ['argilla -distilabel', [1]],
  ['-argilla', except(1, 2)],
  ['--argilla', [1, 2]],
  ['argilla | -distilabel', every],
  ['-(argilla | dog)', [3, 4, 5, 8, 9, 11]],
  // left to right, no precedence; parentheses group
  ['python | dog lazy', [6, 7]],
  ['dog lazy | python', [3, 6, 7]],
  ['argilla | python -distilabel', [1, 3]],
  ['(argilla | python) -distilabel', [1, 3]],
  // phrases and slop
  ['"quick brown"', [6]],
  ['"brown fox"~1', [6, 7]],
  ['"quick fox"~1', [6, 7]],
  ['"fox quick"~3', [6, 7]],
  // prefix and fuzziness
  ['arg*', [1, 2, 9]],
  ['ARG*', [1, 2, 9]],
  ['my_t*', [3]],
  ['foo-ba*', []],
  ['argilla~1', [1, 2, 9]],
  ['argilla~', [1, 2, 9]],
  ['argilla~x', [1, 2]],
  ['argilla~1 -argilla', [9]],
  // the standard analyzer's words: lower case, accents kept, UAX #29 boundaries
  ['my_term', [3]],
  ['my', []],
  ["can't", [4]],
  ['can', []],
  ['3.14', [5]],
  ['3', []],
  ['a1b2', [5]],
  ['café', [8]],
  ['CAFÉ', [8]],
  ['cafe', []],
  // escapes and malformed input
  ['\\-argilla', [1, 2]],
  ['"quick brown', [6, 7, 10]],
  ['argilla (', [1, 2]],
  ['argilla |', [1, 2]],
  ['| argilla', [1, 2]],
  ['"" argilla', [1, 2]],
  ['() | python', [3]],
  ['-', []],
  ['*', every],
  // one field
  ['distilabel', [2], 'context'],
  ['-argilla', except(1), 'context'],
  ['"quick brown"', [], 'context'],
  ['quick', [10], 'context'],
  ['quick', [6, 7], 'text'],
  ['"brown fox"~1', [6, 7], 'text'],
  ['"brown fox"~1', [], 'context'],
  ['brown -fox', [10], 'text'],
  ['argilla | -distilabel', except(2), 'context'],
  ['arg* | snake', [1, 3], 'context'],
  ['-(argilla | dog)', except(1, 2, 6, 7, 10), 'text'],
];

const onPostgres = (process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres');

let server: TestServer;
let api: TestApi;
let p: Principals;
let ds: SearchDataset;
const numberOf = new Map<string, number>();

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  p = await createPrincipals(api);
  ds = await createSearchDataset(api, p.workspace.id);
  const records = await upsertRecords(
    api,
    ds.id,
    corpus.map(([context, text], i) => ({ external_id: `n${i + 1}`, fields: { context, text } })),
  );
  records.forEach((record) => numberOf.set(record.external_id, Number(record.external_id.slice(1))));
});
afterAll(() => server.close());

async function search(q: string, field?: string) {
  return p.owner.post(`/datasets/${ds.id}/records/search?limit=100`, { query: { text: { q, field } } });
}

describe('text query syntax', () => {
  it.each(table)('%j finds %j (field %s)', async (q, expected, field) => {
    const res = await search(q, field);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const found = res.body.items.map((item: { record: { external_id: string } }) => numberOf.get(item.record.external_id)!);
    expect([...found].sort((a, b) => a - b)).toEqual(expected);
    expect(res.body.total).toBe(expected.length);
  });

  it('ranks the records holding more of what an OR looks for first', async () => {
    const res = await search('argilla | distilabel');
    const found = res.body.items.map((item: { record: { external_id: string } }) => item.record.external_id);
    expect(found[0]).toBe('n2');
  });

  it('lists the hits of a query that looks for no word in record order, with a score of 0', async () => {
    for (const [q, expected] of [['-argilla', except(1, 2)], ['*', every]] as const) {
      const res = await search(q);
      expect(res.body.items.map((item: { record: { external_id: string } }) => numberOf.get(item.record.external_id))).toEqual(expected);
      expect(res.body.items.every((item: { query_score: number }) => item.query_score === 0)).toBe(true);
    }
  });

  it('answers any mix of operators, words and escapes with hits, never an error', async () => {
    const random = seededRandom(21);
    const pieces = ['argilla', 'dog', 'qu*', 'fox~1', '"brown fox"~2', '"', '(', ')', '|', '+', '-', '\\', '~', '*', ' ', "can't", 'é', '_', '~9'];
    for (let n = 0; n < 150; n++) {
      const q = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]).join(random() < 0.5 ? ' ' : '');
      const res = await search(q);
      expect(res.status, `${q}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it('still bounds the query: 2,000 characters, 32 distinct terms and 32 levels of operators; repeats merge', async () => {
    const many = Array.from({ length: 33 }, (_, i) => `w${i}*`).join(' | ');
    const res = await search(many);
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe('Text query has too many distinct terms: 33, at most 32 are allowed.');
    const repeated = await search(Array.from({ length: 60 }, () => '"quick brown" | quick~1').join(' '));
    expect(repeated.status).toBe(200);
    expect(repeated.body.total).toBe(3);
    const alternating = Array.from({ length: 20 }, (_, i) => `w${i % 10} | w${(i + 3) % 10}`).join(' ');
    const deep = await search(alternating);
    expect(deep.status).toBe(422);
    expect(deep.body.detail).toBe('Text query nests its operators too deeply: 40 levels, at most 32 are allowed.');
    const long = await search('a'.repeat(2001));
    expect(long.body.detail).toBe('Text query is too long: 2001 characters, at most 2000 are allowed.');
  });
});

describe.runIf(onPostgres)('the PostgreSQL text index', () => {
  const indexesOf = async (table: string) =>
    (await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = ${table} ORDER BY indexname`.execute(server.app.database.db)).rows.map((r) => r.name);

  it('has one GIN index, on doc, and a search in one field reads it', async () => {
    const { db } = server.app.database;
    const table = textIndexTable(ds.id);
    expect(await indexesOf(table)).toEqual([`${table}_doc`, `${table}_pkey`]);
    const queries: MatchNode[] = [
      { kind: 'word', word: 'quick' },
      { kind: 'phrase', words: ['brown', 'fox'], slop: 1 },
      { kind: 'and', children: [{ kind: 'prefix', prefix: 'bro' }, { kind: 'not', child: { kind: 'word', word: 'fox' } }] },
    ];
    for (const query of queries) {
      const { condition } = compilePostgresMatch({ query, column: 'c1', columns: ['c0', 'c1'] });
      const plan = await db.transaction().execute(async (trx) => {
        // Without an index for the condition, the plan is a sequential scan even so.
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT t.rid FROM ${sql.table(table)} AS t WHERE ${condition}`.execute(trx);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan, JSON.stringify(query)).toContain(`Bitmap Index Scan on ${table}_doc`);
    }
  });

  const ridsIn = async (table: string) =>
    (await sql<{ rid: string }>`SELECT rid FROM ${sql.table(table)} ORDER BY rid`.execute(server.app.database.db)).rows.map((r) => Number(r.rid));
  const foreignKeysOf = async (table: string) =>
    (
      await sql<{ name: string }>`SELECT conname AS name FROM pg_constraint WHERE contype = 'f' AND conrelid = ${table}::regclass ORDER BY conname`.execute(
        server.app.database.db,
      )
    ).rows.map((r) => r.name);

  it('has no foreign key to records: a deleted record takes its row with it, one by one or in bulk', async () => {
    const { db } = server.app.database;
    const other = await createSearchDataset(api, p.workspace.id);
    const written = await upsertRecords(api, other.id, [1, 2, 3, 4].map((n) => ({ external_id: `d${n}`, fields: { text: `word${n} shared` } })));
    const table = textIndexTable(other.id);
    expect(await foreignKeysOf(table)).toEqual([]);
    const rids = new Map((await db.selectFrom('records').select(['id', 'rid']).where('dataset_id', '=', other.id).execute()).map((r) => [r.id, Number(r.rid)]));
    expect(await ridsIn(table)).toEqual([...rids.values()].sort((a, b) => a - b));
    expect((await p.owner.delete(`/records/${written[0]!.id}`)).status).toBe(200);
    expect((await p.owner.delete(`/datasets/${other.id}/records?ids=${written[1]!.id},${written[2]!.id}`)).status).toBe(204);
    expect(await ridsIn(table)).toEqual([rids.get(written[3]!.id)]);
    const res = await p.owner.post(`/datasets/${other.id}/records/search`, { query: { text: { q: 'shared' } } });
    expect(res.body.items.map((item: { record: { external_id: string } }) => item.record.external_id)).toEqual(['d4']);
  });

  it('loses the foreign keys that only repeated the records’ own in the migration', async () => {
    const { db, dialect } = server.app.database;
    const table = textIndexTable(ds.id);
    await sql.raw(`ALTER TABLE ${table} ADD FOREIGN KEY (rid) REFERENCES records(rid) ON DELETE CASCADE`).execute(db);
    await sql`ALTER TABLE suggestions ADD FOREIGN KEY (dataset_id) REFERENCES datasets(id) ON DELETE CASCADE`.execute(db);
    await sql`ALTER TABLE suggestions ADD FOREIGN KEY (question_id) REFERENCES questions(id) ON DELETE CASCADE`.execute(db);
    await sql`ALTER TABLE vectors ADD FOREIGN KEY (dataset_id) REFERENCES datasets(id) ON DELETE CASCADE`.execute(db);
    expect(await foreignKeysOf(table)).toEqual([`${table}_rid_fkey`]);
    await dropRedundantPostgresForeignKeys(db as never, { dialect });
    expect(await foreignKeysOf(table)).toEqual([]);
    expect(await foreignKeysOf('suggestions')).toEqual(['suggestions_record_id_fkey']);
    expect(await foreignKeysOf('vectors')).toEqual(['vectors_record_id_fkey', 'vectors_vector_settings_id_fkey']);
  });

  it('loses the per-field indexes of earlier versions in the migration, and finds the same records', async () => {
    const { db, dialect } = server.app.database;
    const table = textIndexTable(ds.id);
    for (const column of ['c0', 'c1']) await sql.raw(`CREATE INDEX ${table}_${column} ON ${table} USING gin (${column})`).execute(db);
    await dropPostgresFieldTextIndexes(db as never, { dialect });
    expect(await indexesOf(table)).toEqual([`${table}_doc`, `${table}_pkey`]);
    const res = await search('quick', 'context');
    expect(res.body.items.map((item: { record: { external_id: string } }) => item.record.external_id)).toEqual(['n10']);
  });
});

describe('a text index built before these words', () => {
  it('is rebuilt by the migration with the standard words and the set negations start from', async () => {
    const { db, dialect } = server.app.database;
    await dropTextIndex(db, dialect, ds.id);
    const table = textIndexTable(ds.id);
    // The earlier layouts: letter/number runs, no `u` column.
    if (dialect === 'postgres') await sql.raw(`CREATE TABLE ${table} (rid bigint PRIMARY KEY, doc tsvector NOT NULL, c0 tsvector, c1 tsvector, c2 tsvector)`).execute(db);
    else await sql.raw(`CREATE VIRTUAL TABLE ${table} USING fts5(c0, c1, c2, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`).execute(db);
    await indexTextAsStandardWords(db as never, { dialect });
    for (const [q, expected] of [['my_term', [3]], ['-argilla', except(1, 2)], ['"brown fox"~1', [6, 7]]] as const) {
      const res = await search(q);
      expect(res.body.items.map((item: { record: { external_id: string } }) => numberOf.get(item.record.external_id)).sort((a: number, b: number) => a - b), q).toEqual(expected);
    }
  });
});
