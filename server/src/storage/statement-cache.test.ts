import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { reusedStatement } from './statement-cache.js';

describe('reusedStatement', () => {
  const sqlite = new SQLite(':memory:');
  const prepared: string[] = [];
  const get = (cache: Map<string, SQLite.Statement>, sql: string) =>
    reusedStatement(cache, sql, 2, () => {
      prepared.push(sql);
      return sqlite.prepare(sql);
    });

  it('prepares a statement once and reuses it while it stays among the most recently used', () => {
    const cache = new Map<string, SQLite.Statement>();
    prepared.length = 0;
    const first = get(cache, 'SELECT 1');
    expect(get(cache, 'SELECT 1')).toBe(first);
    get(cache, 'SELECT 2');
    // SELECT 1 used again: SELECT 2 is now the least recently used and goes for SELECT 3
    expect(get(cache, 'SELECT 1')).toBe(first);
    get(cache, 'SELECT 3');
    expect([...cache.keys()]).toEqual(['SELECT 1', 'SELECT 3']);
    get(cache, 'SELECT 2');
    expect(prepared).toEqual(['SELECT 1', 'SELECT 2', 'SELECT 3', 'SELECT 2']);
    expect(cache.size).toBe(2);
  });
});
