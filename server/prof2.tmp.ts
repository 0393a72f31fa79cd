import SQLite from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
const sqlite = new SQLite(process.argv[2]);
sqlite.pragma('cache_size = -65536');
const ds = (sqlite.prepare("select id from datasets").get() as any).id;
const user = (sqlite.prepare("select id from users where role='annotator'").get() as any).id;
const fts = 'fts_' + ds.replace(/-/g, '');
function run(name: string, text: string, params: unknown[]) {
  const st = sqlite.prepare(text);
  for (let i = 0; i < 2; i++) st.all(...params as any[]);
  const t0 = performance.now();
  const r = st.all(...params as any[]);
  const ms = performance.now() - t0;
  console.log(`== ${name}: ${ms.toFixed(1)}ms rows=${r.length} first=${JSON.stringify(r[0])}`);
  console.log(sqlite.prepare('EXPLAIN QUERY PLAN ' + text).all(...params as any[]).map((x: any) => '      ' + x.detail).join('\n'));
}
const sub = `SELECT rr.rid FROM responses rs JOIN records rr ON rr.id = rs.record_id WHERE rs.dataset_id = ? AND rs.user_id = ?`;
run('pending count rid', `SELECT count(*) n FROM records r WHERE r.dataset_id = ? AND r.rid NOT IN (${sub}) AND r.status IN ('pending')`, [ds, ds, user]);
run('pending page rid', `SELECT r.rid FROM records r WHERE r.dataset_id = ? AND r.rid NOT IN (${sub}) AND r.status IN ('pending') ORDER BY r.rid LIMIT 50 OFFSET 300`, [ds, ds, user]);
run('count all status', `SELECT count(*) n FROM records r WHERE r.dataset_id = ? AND r.status IN ('pending')`, [ds]);
const words = sqlite.prepare(`SELECT json_extract(fields,'$.prompt') p FROM records LIMIT 3`).all() as any[];
console.log(words.map((w) => w.p.slice(0, 80)));
