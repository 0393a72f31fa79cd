/**
 * Start-stop soak: the compiled server (as `npm start` runs it) started and stopped BENCH_STARTS
 * times (default 20), each time with a fresh SQLite database, 2,000 records written through
 * PUT /records/bulk, then text, filter and sorted searches while the text index catches up, so the
 * search readers and the text indexer threads start, work and stop with the server. Prints how
 * many runs ended in an abort (a signal, or a native assertion in the output) and how each ended.
 *
 *   npx tsx bench/start-stop-soak.ts
 */
import { performance } from 'node:perf_hooks';
import { httpClient, sentencePool, startServerProcess, type ServerProcess } from './lib/server-process.js';

const STARTS = Number(process.env.BENCH_STARTS ?? 20);
const RECORDS = 2_000;
const BATCH = 500;
const SEARCHES = 60;
const sentence = sentencePool(12, 4_000);

async function exercise(server: ServerProcess): Promise<void> {
  const call = httpClient(server.base);
  const workspace = await call('POST', '/workspaces', { name: 'soak' });
  const dataset = await call('POST', '/datasets', { name: 'soak', workspace_id: workspace.id });
  await call('POST', `/datasets/${dataset.id}/fields`, { name: 'text', title: 'text', required: true, settings: { type: 'text' } });
  await call('POST', `/datasets/${dataset.id}/questions`, {
    name: 'label', title: 'Label', required: true, settings: { type: 'label_selection', options: [{ value: 'a', text: 'a' }, { value: 'b', text: 'b' }] },
  });
  await call('POST', `/datasets/${dataset.id}/metadata-properties`, { name: 'n', title: 'n', settings: { type: 'integer' } });
  await call('PUT', `/datasets/${dataset.id}/publish`);
  for (let first = 0; first < RECORDS; first += BATCH) {
    const items = Array.from({ length: BATCH }, (_, i) => ({ fields: { text: sentence() }, metadata: { n: first + i } }));
    await call('PUT', `/datasets/${dataset.id}/records/bulk`, { items });
  }
  const url = `/datasets/${dataset.id}/records/search?limit=20`;
  for (let i = 0; i < SEARCHES; i++) {
    const words = sentence().split(' ');
    await call('POST', url, { query: { text: { q: words[i % words.length] } } });
    await call('POST', url, { filters: { and: [{ type: 'range', scope: { entity: 'metadata', metadata_property: 'n' }, ge: i * 10 }] }, sort: [{ scope: { entity: 'metadata', metadata_property: 'n' }, order: 'desc' }] });
  }
}

async function once(): Promise<{ ending: string; aborted: boolean; failed: boolean; seconds: number }> {
  const started = performance.now();
  let server: ServerProcess;
  try {
    server = await startServerProcess();
  } catch (error) {
    // startServerProcess throws with the server's last output when it exits before listening.
    const output = (error as Error).message;
    const aborted = /Assertion failed|Aborted|SIGABRT/.test(output);
    return { ending: aborted ? 'aborted during start' : `failed to start: ${output.slice(0, 120)}`, aborted, failed: true, seconds: (performance.now() - started) / 1000 };
  }
  const ended = new Promise<string>((resolve) => server.child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit ${code}`)));
  let output = '';
  server.child.stderr!.on('data', (chunk) => (output += chunk));
  server.child.stdout!.on('data', (chunk) => (output += chunk));
  let failure = '';
  try {
    await exercise(server);
  } catch (error) {
    failure = ` (during the run: ${(error as Error).message.slice(0, 120)})`;
  }
  await server.stop();
  const ending = await ended;
  const aborted = ending !== 'exit 0' || /Assertion failed|Aborted|SIGABRT/.test(output);
  return { ending: `${ending}${failure}`, aborted, failed: aborted || failure !== '', seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  console.log(`node: ${process.version}`);
  console.log(`starts: ${STARTS}, each ${RECORDS} records and ${SEARCHES * 2} searches`);
  let aborts = 0;
  let failures = 0;
  for (let run = 1; run <= STARTS; run++) {
    const result = await once();
    if (result.aborted) aborts++;
    if (result.failed) failures++;
    console.log(`run ${run}: ${result.ending}, ${result.seconds.toFixed(1)} s`);
  }
  console.log(`aborts: ${aborts} of ${STARTS}`);
  console.log(`runs with a failed request or exit: ${failures} of ${STARTS}`);
  if (failures) process.exitCode = 1;
}

await main();
