import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
const stats = new Map<string, { n: number; ms: number }>();
const origPrepare = (SQLite as any).prototype.prepare;
(SQLite as any).prototype.prepare = function (sqlText: string) {
  const t0 = performance.now();
  const stmt = origPrepare.call(this, sqlText);
  const key = sqlText.replace(/\s+/g, ' ').replace(/\(\?(, \?)*\)(, \(\?(, \?)*\))*/g, '(?..)').replace(/\?(, \?)+/g, '?..').slice(0, 110);
  const rec = (k: string, ms: number) => { const s = stats.get(k) ?? { n: 0, ms: 0 }; s.n++; s.ms += ms; stats.set(k, s); };
  rec('PREPARE ' + key, performance.now() - t0);
  for (const m of ['all', 'run', 'get', 'iterate']) {
    const orig = stmt[m];
    if (!orig) continue;
    stmt[m] = function (...args: unknown[]) { const t = performance.now(); try { return orig.apply(this, args); } finally { rec(key, performance.now() - t); } };
  }
  return stmt;
};
process.on('exit', () => {
  const rows = [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30);
  for (const [k, s] of rows) console.log(`${s.ms.toFixed(0).padStart(7)}ms ${String(s.n).padStart(6)}x ${k}`);
});
await import('./server-write.ts');
