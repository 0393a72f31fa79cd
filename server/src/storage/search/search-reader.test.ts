import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../dialect.js';
import { openDatabase } from '../open-database.js';
import { SqliteSearchReads } from './search-reader.js';

/** A statement that runs for tens of ms on this machine: counts to a million. */
const SLOW = sql<{ n: number }>`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000) SELECT count(*) AS n FROM c`;

const opened: { database: Database; dir: string }[] = [];

async function open(searchReader: true | 'every-statement'): Promise<{ database: Database; reads: SqliteSearchReads }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-reader-'));
  const database = await openDatabase(`sqlite:${path.join(dir, 'reader.db')}`, { textIndexer: false, searchReader });
  opened.push({ database, dir });
  expect(database.searchReads).toBeInstanceOf(SqliteSearchReads);
  return { database, reads: database.searchReads as SqliteSearchReads };
}

afterEach(async () => {
  for (const { database, dir } of opened.splice(0)) {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('search statements on the reader thread (SQLite file)', () => {
  it('reads what the server committed just before, with the same values', async () => {
    const { database, reads } = await open('every-statement');
    await database.db.insertInto('workspaces').values({ id: 'w1', name: 'first', inserted_at: '2026-01-01', updated_at: '2026-01-01' }).execute();
    const reader = reads.readerFor('user-a');
    const rows = await reader.selectFrom('workspaces').select(['id', 'name']).execute();
    expect(rows).toEqual([{ id: 'w1', name: 'first' }]);
    expect(reads.statementsOnThread).toBe(1);
    await database.db.updateTable('workspaces').set({ name: 'renamed' }).where('id', '=', 'w1').execute();
    const { rows: again } = await sql<{ name: string; n: number }>`SELECT name, 41 + 1 AS n FROM workspaces`.execute(reader);
    expect(again).toEqual([{ name: 'renamed', n: 42 }]);
  });

  it('answers a failing statement with its error, and refuses writes', async () => {
    const { database, reads } = await open('every-statement');
    const reader = reads.readerFor('user-a');
    await expect(sql`SELECT * FROM no_such_table`.execute(reader)).rejects.toMatchObject({ message: expect.stringMatching(/no such table/), code: 'SQLITE_ERROR' });
    await database.db.insertInto('workspaces').values({ id: 'w1', name: 'kept', inserted_at: '2026-01-01', updated_at: '2026-01-01' }).execute();
    await expect(sql`DELETE FROM workspaces`.execute(reader)).rejects.toThrow();
    expect(await database.db.selectFrom('workspaces').select('id').execute()).toEqual([{ id: 'w1' }]);
    // The thread keeps serving after an error.
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(reader)).rows).toEqual([{ one: 1 }]);
  });

  it('runs statements on the server connection until their user runs a long one', async () => {
    const { reads } = await open(true);
    const heavy = reads.readerFor('heavy-user');
    const light = reads.readerFor('light-user');
    await sql`SELECT 1`.execute(heavy);
    await sql`SELECT 1`.execute(light);
    expect(reads.statementsOnThread).toBe(0);
    expect((await SLOW.execute(heavy)).rows).toEqual([{ n: 1_000_000 }]);
    expect(reads.statementsOnThread).toBe(0);
    await sql`SELECT 1`.execute(heavy);
    expect(reads.statementsOnThread).toBe(1);
    await sql`SELECT 1`.execute(light);
    expect(reads.statementsOnThread).toBe(1);
  });

  it('gives the thread to the user who has had the least of it', async () => {
    const { reads } = await open('every-statement');
    const flood = reads.readerFor('flooding-user');
    const single = reads.readerFor('single-user');
    await SLOW.execute(flood); // the flooding user has used the thread lately
    const finished: string[] = [];
    const track = (name: string, query: Promise<unknown>) => query.then(() => finished.push(name));
    const queued = [track('flood-1', SLOW.execute(flood)), track('flood-2', SLOW.execute(flood)), track('flood-3', SLOW.execute(flood))];
    queued.push(track('single', sql`SELECT 1`.execute(single)));
    await Promise.all(queued);
    // flood-1 was under way when the single user's statement arrived; it went next.
    expect(finished).toEqual(['flood-1', 'single', 'flood-2', 'flood-3']);
  });

  it('runs statements on the server connection when the thread cannot start, and does not retry at once', async () => {
    const { database } = await open('every-statement');
    await database.db.insertInto('workspaces').values({ id: 'w1', name: 'kept', inserted_at: '2026-01-01', updated_at: '2026-01-01' }).execute();
    // A thread whose database file cannot be opened fails as it starts.
    const broken = new SqliteSearchReads(database.db, path.join(os.tmpdir(), 'no-such-folder', 'x.db'), () => {}, true);
    const reader = broken.readerFor('user-a');
    expect(await reader.selectFrom('workspaces').select('name').execute()).toEqual([{ name: 'kept' }]);
    expect(broken.statementsOnThread).toBe(1);
    expect(await reader.selectFrom('workspaces').select('id').execute()).toEqual([{ id: 'w1' }]);
    expect(broken.statementsOnThread).toBe(1);
    await broken.close();
  });

  it('fails statements still waiting when the database closes', async () => {
    const { database, reads } = await open('every-statement');
    const reader = reads.readerFor('user-a');
    const first = SLOW.execute(reader);
    const waiting = sql`SELECT 1`.execute(reader);
    await database.close();
    opened.pop();
    await expect(waiting).rejects.toThrow(/closed/);
    await first.catch(() => undefined);
  });
});
