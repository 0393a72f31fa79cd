/**
 * Bench: import 10,000 rows of the fake hub's `scholia/sentiment` (text, ClassLabel suggestion,
 * two numeric metadata, id column) through `POST /datasets/{id}/import` and the in-process worker.
 * Run from the repo root: `npx tsx bench/hub-import.ts`. Prints the wall time from POST to `finished`.
 */
import { startTestServer, OWNER } from '../server/test/test-server.js';
import { TestApi } from '../server/test/api-client.js';
import { startFakeHub } from '../server/test/fake-hub/fake-hub.js';
import { createHubDataset, labelSettings } from '../server/test/fake-hub/hub-fixtures.js';

const hub = await startFakeHub();
const server = await startTestServer({ env: { SCHOLIA_HUB_URL: hub.url, SCHOLIA_DATASETS_SERVER_URL: hub.url } });
try {
  const db = server.app.database.db;
  const ds = await createHubDataset(db, {
    fields: [{ name: 'text', type: 'text' }],
    questions: [{ name: 'label', settings: labelSettings(['negative', 'positive', 'neutral']), required: true }],
    metadata: [
      { name: 'n_words', settings: { type: 'integer', min: null, max: null } },
      { name: 'score', settings: { type: 'float', min: null, max: null } },
    ],
  });
  const api = new TestApi(server.url, { apiKey: OWNER.apiKey });
  const started = performance.now();
  const res = await api.post(`/datasets/${ds.id}/import`, {
    name: 'scholia/sentiment',
    subset: 'default',
    split: 'train',
    mapping: {
      fields: [{ source: 'text', target: 'text' }],
      metadata: [{ source: 'n_words', target: 'n_words' }, { source: 'score', target: 'score' }],
      suggestions: [{ source: 'label', target: 'label' }],
      external_id: 'id',
    },
  });
  let job;
  for (;;) {
    job = await db.selectFrom('jobs').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    if (job.status === 'finished' || job.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  const count = await db.selectFrom('records').select((eb) => eb.fn.countAll().as('n')).where('dataset_id', '=', ds.id).executeTakeFirst();
  console.log(`hub-import: ${job.status} ${String(count?.n)} records in ${seconds.toFixed(2)} s (limit 10 s) ${job.result ?? job.error ?? ''}`);
  if (job.status !== 'finished' || seconds > 10) process.exitCode = 1;
} finally {
  await server.close();
  await hub.close();
}
