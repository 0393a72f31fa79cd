import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');

// The server prepares statements on the main thread and in worker threads (search readers, text
// indexer) that start and stop while it runs. On Node 24 a SQLite binding whose statements are
// node::ObjectWrap objects aborts the whole process when one is collected outside its thread's
// environment. The churn below aborted within seconds with better-sqlite3 12 on Node 24.
const churn = `
const { Worker } = require('node:worker_threads');
const Database = require(${JSON.stringify(betterSqlite)});
const db = new Database(':memory:');
db.exec('create table t(a)');
let prepared = 0;
function mainThreadChurn() {
  for (let i = 0; i < 2000; i++) db.prepare('select a from t where a = ' + prepared++).all();
  if (prepared < 60000) setImmediate(mainThreadChurn); else process.stdout.write('main done;');
}
const workerCode = 'const D = require(' + JSON.stringify(${JSON.stringify(betterSqlite)}) + ');'
  + 'const d = new D(":memory:"); const kept = [];'
  + 'for (let i = 0; i < 2000; i++) kept.push(d.prepare("select " + i)); globalThis.kept = kept;';
let workers = 0;
function nextWorker() {
  new Worker(workerCode, { eval: true }).on('exit', () => {
    if (++workers < 12) nextWorker(); else process.stdout.write('workers done;');
  });
}
mainThreadChurn();
nextWorker();
`;

describe('SQLite statements across worker threads', () => {
  it('survives statements collected while worker threads start and exit', () => {
    const child = spawnSync(process.execPath, ['-e', churn], { encoding: 'utf8', timeout: 120_000 });
    expect(child.stderr).not.toContain('Assertion failed');
    expect({ status: child.status, signal: child.signal }).toEqual({ status: 0, signal: null });
    expect(child.stdout).toContain('main done;');
    expect(child.stdout).toContain('workers done;');
  }, 130_000);
});
