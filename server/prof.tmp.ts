import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { performance } from 'node:perf_hooks';
import * as repo from './src/storage/repositories/search.repository.js';
import { findSimilarRecords } from './src/storage/search/vector-index.js';

const file = process.argv[2];
const sqlite = new SQLite(file);
sqlite.pragma('cache_size = -65536');
let logs: string[] = [];
const db = new Kysely<any>({
  dialect: new SqliteDialect({ database: sqlite }),
  log: (e) => { if (e.level === 'query') logs.push(`${e.queryDurationMillis.toFixed(1)}ms ${e.query.sql.replace(/\s+/g, ' ').slice(0, 400)} ${JSON.stringify(e.query.parameters).slice(0, 200)}`); },
});
const ds = sqlite.prepare("select id from datasets").get() as { id: string };
const user = sqlite.prepare("select id from users where role='annotator'").get() as { id: string };
const datasetId = ds.id;
async function time(name: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 2; i++) await fn();
  logs = [];
  const t0 = performance.now();
  const r = await fn();
  console.log(`== ${name}: ${(performance.now() - t0).toFixed(1)}ms  result=${Array.isArray(r) ? r.length : JSON.stringify(r)}`);
  for (const l of logs) console.log('   ', l);
}
function plan(sqlText: string, params: unknown[]) {
  console.log(sqlite.prepare('EXPLAIN QUERY PLAN ' + sqlText).all(...params as any[]).map((r: any) => '      ' + r.detail).join('\n'));
}
const mode = process.argv[3] ?? 'all';
const meta = { on: 'metadata', name: 'length', match: { kind: 'range', ge: 300, le: 399 }, listValues: false } as const;
const pend = { on: 'response-status', statuses: [], pending: true, userId: user.id } as const;
const recPend = { on: 'record', column: 'status', match: { kind: 'terms', values: ['pending'] } } as const;
const s1: any = { datasetId, filters: [meta], sort: [] };
const s2: any = { datasetId, filters: [pend, recPend], sort: [] };
const word = process.argv[4] ?? 'vosenka';
const s3: any = { datasetId, filters: [{ ...meta, match: { kind: 'range', ge: 0, le: 499 } }], textMatch: `"${word}"`, sort: [{ on: 'metadata', name: 'score', order: 'desc' }] };
await time('meta count', () => repo.countSearchMatches(db, s1));
await time('meta page', () => repo.pageBySort(db, s1, 0, 50));
await time('pending count', () => repo.countSearchMatches(db, s2));
await time('pending page', () => repo.pageBySort(db, s2, 300, 50));
await time('fts count only', () => repo.countSearchMatches(db, { datasetId, filters: [], textMatch: `"${word}"`, sort: [] }));
await time('fts page score', () => repo.pageByTextScore(db, { datasetId, filters: [], textMatch: `"${word}"`, sort: [] }, 0, 50));
await time('text+filter+sort count', () => repo.countSearchMatches(db, s3));
await time('text+filter+sort page', () => repo.pageBySort(db, s3, 0, 50));
const vs = sqlite.prepare('select id, dimensions from vector_settings').get() as any;
const q = Array.from({ length: 384 }, () => Math.random());
await time('similar load', () => findSimilarRecords(db, vs, q, { limit: 50, negate: false }));
await time('similar', () => findSimilarRecords(db, vs, q, { limit: 50, negate: false }));
