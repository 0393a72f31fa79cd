import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { postgresBinaryArray, type PostgresElementType } from './postgres-binary-array.js';

const onPostgres = (process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres');

let server: TestServer;
beforeAll(async () => {
  if (onPostgres) server = await startTestServer();
});
afterAll(() => server?.close());

/** What PostgreSQL reads from the array: its length and each element as text (NULL as null). */
async function readBack(type: PostgresElementType, values: unknown[]) {
  const { rows } = await sql<{ length: number | null; element: string | null }>`
    SELECT cardinality(a) AS length, e::text AS element
    FROM (SELECT ${postgresBinaryArray(type, values)}::${sql.raw(type)}[] AS a) s
    LEFT JOIN LATERAL unnest(a) WITH ORDINALITY AS u(e, n) ON true ORDER BY n`.execute(server.app.database.db);
  return { length: Number(rows[0]!.length), elements: rows[0]!.length === 0 ? [] : rows.map((row) => row.element) };
}

describe.runIf(onPostgres)('binary arrays for PostgreSQL', () => {
  it('reads text as sent, with NULLs, empty strings, quotes, braces, backslashes and non-ASCII', async () => {
    const values = ['plain', null, '', 'a "quoted", {braced} word', 'back\\slash', "can't", 'line\nbreak', 'é 🚀', undefined];
    expect(await readBack('text', values)).toEqual({ length: 9, elements: values.map((value) => value ?? null) });
  });

  it('reads jsonb, integers, bigints and bytes', async () => {
    expect(await readBack('jsonb', ['{"a": [1, "ü"]}', null, '"x"'])).toEqual({ length: 3, elements: ['{"a": [1, "ü"]}', null, '"x"'] });
    expect(await readBack('integer', [0, -7, 2_147_483_647, null])).toEqual({ length: 4, elements: ['0', '-7', '2147483647', null] });
    expect(await readBack('bigint', [0, -7, Number.MAX_SAFE_INTEGER, null])).toEqual({ length: 4, elements: ['0', '-7', '9007199254740991', null] });
    const bytes = Uint8Array.from([0, 1, 0x5c, 0x22, 0xff]);
    expect(await readBack('bytea', [bytes, Buffer.alloc(0), null])).toEqual({ length: 3, elements: ['\\x00015c22ff', '\\x', null] });
  });

  it('sends an empty array', async () => {
    expect(await readBack('text', [])).toEqual({ length: 0, elements: [] });
  });

  it('is refused by PostgreSQL as another element type, rather than misread', async () => {
    await expect(sql`SELECT ${postgresBinaryArray('text', ['1'])}::integer[]`.execute(server.app.database.db)).rejects.toThrow(/element type/);
  });
});
