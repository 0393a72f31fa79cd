import SQLite from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { attachTextIndexFile } from './text-index-file.js';

/**
 * Worker thread of search-reader.ts: runs a search's read statements on a connection of its own
 * (the records' file with the text index attached, read-only) and posts back their rows or error.
 * One statement at a time: the server sends the next one when this one is answered.
 */
export interface ReadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/** `ms`: how long the statement ran on this thread (not counting its wait for the thread). */
export type ReadAnswer = { id: number; ms: number } & ({ rows: unknown[] } | { error: { message: string; code?: string } });

/** Compiled statements kept (by SQL text); searches repeat a few shapes with new parameters. */
const STATEMENT_CACHE_SIZE = 200;

const { file, cacheMiB } = workerData as { file: string; cacheMiB: number };
const sqlite = new SQLite(file);
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma(`cache_size = -${cacheMiB * 1024}`);
sqlite.pragma('temp_store = MEMORY');
attachTextIndexFile(sqlite, file);
// Reads only: whatever reaches this connection cannot change the data.
sqlite.pragma('query_only = ON');

const statements = new Map<string, SQLite.Statement>();

function statementFor(sql: string): SQLite.Statement {
  let statement = statements.get(sql);
  if (statement) statements.delete(sql);
  else {
    statement = sqlite.prepare(sql);
    if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
  }
  statements.set(sql, statement);
  return statement;
}

parentPort!.on('message', (request: ReadRequest | 'stop') => {
  if (request === 'stop') {
    sqlite.close();
    process.exit(0);
  }
  let answer: ReadAnswer;
  const started = performance.now();
  try {
    const statement = statementFor(request.sql);
    if (!statement.reader) throw new Error('the search reader runs statements that read, not writes');
    const rows = statement.all(...request.parameters);
    answer = { id: request.id, ms: performance.now() - started, rows };
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    answer = { id: request.id, ms: performance.now() - started, error: { message: message ?? String(error), code } };
  }
  parentPort!.postMessage(answer);
});
