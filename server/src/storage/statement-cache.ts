import type SQLite from 'better-sqlite3';

/**
 * A connection's prepared statements by key, least recently used evicted past `limit`. Compiled
 * programs hold memory (a multi-row insert's hundreds of KiB), so every cache of them is bounded.
 * better-sqlite3 runs a statement synchronously: one cached statement is never in use twice at once.
 */
export function reusedStatement<K>(cache: Map<K, SQLite.Statement>, key: K, limit: number, prepare: () => SQLite.Statement): SQLite.Statement {
  let statement = cache.get(key);
  if (statement) {
    cache.delete(key);
  } else {
    statement = prepare();
    if (cache.size >= limit) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, statement);
  return statement;
}
