import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { postgresBinaryArray } from './postgres-binary-array.js';
import { postgresBinaryTsvectors } from './postgres-binary-tsvector.js';
import { quotedLexeme } from './search/text-index.js';

const onPostgres = (process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres');

let server: TestServer;
beforeAll(async () => {
  if (onPostgres) server = await startTestServer();
});
afterAll(() => server?.close());

/** What PostgreSQL stores for each binary tsvector, as tsvector text. */
async function received(vectors: (Buffer | null)[]): Promise<(string | null)[]> {
  const { rows } = await sql<{ vector: string | null }>`
    SELECT v::text AS vector FROM unnest(${postgresBinaryArray('tsvector', vectors)}::tsvector[]) WITH ORDINALITY AS u(v, n) ORDER BY n`.execute(
    server.app.database.db,
  );
  return rows.map((row) => row.vector);
}

/** What PostgreSQL's own input makes of the same words at the same positions, as tsvector text. */
async function parsed(words: string[], first: number): Promise<string> {
  const text = words.map((word, i) => `${quotedLexeme(word)}:${Math.min(16_383, first + i)}`).join(' ');
  const { rows } = await sql<{ vector: string }>`SELECT ${text}::tsvector::text AS vector`.execute(server.app.database.db);
  return rows[0]!.vector;
}

describe.runIf(onPostgres)('binary tsvectors for PostgreSQL', () => {
  it('hold what PostgreSQL makes of the same words as text: each lexeme once, in order, its positions ascending', async () => {
    const texts = [
      ['the', 'quick', 'fox', 'the', 'lazy', 'the', 'fox'],
      ["can't", 'back\\slash', 'a"quote', 'café', 'zürich', 'émile', 'abc', 'ab', 'b'],
      ['日', '本', '🚀', '\u{1f680}x', '\uffff', 'ｚ', 'z'], // past U+FFFF, JavaScript's order is not PostgreSQL's
      [],
    ];
    const vectors = postgresBinaryTsvectors(texts, 2);
    const got = await received(vectors);
    for (const [i, words] of texts.entries()) expect(got[i], words.join(' ')).toBe(await parsed(words, 2));
  });

  it('keep 256 positions of a lexeme and none past 16,383, as PostgreSQL does', async () => {
    const repeated = Array.from({ length: 300 }, () => 'again');
    const long = Array.from({ length: 16_500 }, (_, i) => (i % 2 === 0 ? `w${i % 7}` : 'late'));
    const [a, b] = await received(postgresBinaryTsvectors([repeated, long], 2));
    expect(a).toBe(await parsed(repeated, 2));
    expect(a!.split(',')).toHaveLength(256);
    expect(b).toBe(await parsed(long, 2));
  });

  it('leave a record under the limit whole, also one that comes close to it in several fields', async () => {
    const words = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}${i}`);
    // ~400 KB and ~450 KB of PostgreSQL's count: together under 1 MiB, so every word stays.
    const vectors = postgresBinaryTsvectors([words('ü', 25_000), words('b', 30_000)], 2);
    const { rows } = await sql<{ first: number; second: number }>`
      SELECT length(v[1]) AS first, length(v[2]) AS second FROM (SELECT ${postgresBinaryArray('tsvector', vectors)}::tsvector[] AS v) s`.execute(
      server.app.database.db,
    );
    expect(rows[0]).toEqual({ first: 25_000, second: 30_000 });
  });

  it('are NULL for a field without a value and empty for one without words', async () => {
    expect(await received(postgresBinaryTsvectors([null, []], 2))).toEqual([null, '']);
  });

  it('fit a record whose fields hold more distinct words than a tsvector takes: the first words of the first fields stay', async () => {
    // ~110,000 distinct words a field: either alone passes PostgreSQL's 1 MiB, as text or joined.
    const huge = (tag: string) => Array.from({ length: 110_000 }, (_, i) => `${tag}${i}`);
    const vectors = postgresBinaryTsvectors([huge('ü'), huge('b')], 2);
    const { rows } = await sql<{ first: boolean; late: boolean; second: boolean; joined: number }>`
      SELECT v[1] @@ 'ü0'::tsquery AS first, v[1] @@ 'ü109999'::tsquery AS late, coalesce(v[2], '') @@ 'b0'::tsquery AS second,
        length(coalesce(v[1], '') || coalesce(v[2], '')) AS joined
      FROM (SELECT ${postgresBinaryArray('tsvector', vectors)}::tsvector[] AS v) s`.execute(server.app.database.db);
    expect(rows[0]).toMatchObject({ first: true, late: false, second: false });
    expect(rows[0]!.joined).toBeGreaterThan(50_000);
    await expect(sql`SELECT ${huge('a').map((word, i) => `${word}:${i + 2}`).join(' ')}::tsvector`.execute(server.app.database.db)).rejects.toThrow(/too long/);
  });
});
