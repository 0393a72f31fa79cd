import { TestApi } from '../api-client.js';
import { ownApiKey } from '../fixtures.js';
import { startFakeHub } from '../fake-hub/fake-hub.js';
import { CHILD_OWNER, startChildServer, tempDataDir, type ChildServer } from './child-server.js';

/**
 * Kill -9 in the middle of writes, restart, and account for every write the server acknowledged:
 * bulk record upserts (batches of BATCH), response submissions of two annotators on datasets with
 * min_submitted = 2, and a Hub import job. Shared by durability.test.ts and bench/reliability.ts.
 */
export interface DurabilityReport {
  kills: number;
  ackedBatches: number;
  ackedResponses: number;
  /** Acknowledged writes missing after the restart. */
  lostWrites: number;
  /** Batches with some but not all of their records. */
  halfWrittenBatches: number;
  /** Records whose status disagrees with their submitted responses. */
  statusMismatches: number;
  /** Jobs not in a final state after the restart settled. */
  jobsNotFinal: number;
  problems: string[];
}

const BATCH = 50;
const FINAL_JOB = ['finished', 'failed', 'stopped', 'canceled'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function must(res: Promise<{ status: number; body: any }>, status: number) {
  const r = await res;
  if (r.status !== status) throw new Error(`setup call answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

async function createPublishedDataset(owner: TestApi, workspaceId: string, name: string, minSubmitted: number): Promise<string> {
  const ds = await must(owner.post('/datasets', { name, workspace_id: workspaceId, distribution: { strategy: 'overlap', min_submitted: minSubmitted } }), 201);
  await must(owner.post(`/datasets/${ds.id}/fields`, { name: 'text', title: 'text', required: true, settings: { type: 'text' } }), 201);
  await must(
    owner.post(`/datasets/${ds.id}/questions`, {
      name: 'label',
      title: 'label',
      required: true,
      settings: { type: 'label_selection', options: ['negative', 'positive', 'neutral'].map((v) => ({ value: v, text: v })) },
    }),
    201,
  );
  await must(owner.put(`/datasets/${ds.id}/publish`), 200);
  return ds.id;
}

export async function runDurability(options: { cycles: number; killAfterMs?: [number, number]; log?: (line: string) => void }): Promise<DurabilityReport> {
  const [minDelay, maxDelay] = options.killAfterMs ?? [700, 1600];
  const hub = await startFakeHub();
  const dataDir = tempDataDir();
  const env = { SCHOLIA_HUB_URL: hub.url, SCHOLIA_DATASETS_SERVER_URL: hub.url, SCHOLIA_LOG_LEVEL: 'warn' };
  const report: DurabilityReport = {
    kills: 0,
    ackedBatches: 0,
    ackedResponses: 0,
    lostWrites: 0,
    halfWrittenBatches: 0,
    statusMismatches: 0,
    jobsNotFinal: 0,
    problems: [],
  };
  let server: ChildServer = await startChildServer({ dataDir, env });
  try {
    let owner = new TestApi(server.url, { apiKey: CHILD_OWNER.apiKey });
    const ws = (await must(owner.post('/workspaces', { name: 'durability' }), 201)).id;
    const annotators: { id: string; apiKey: string }[] = [];
    for (const name of ['ann-a', 'ann-b']) {
      const user = await must(owner.post('/users', { username: name, first_name: name, role: 'annotator', password: `${name}-password` }), 201);
      await must(owner.post(`/workspaces/${ws}/users`, { user_id: user.id }), 201);
      annotators.push({ id: user.id, apiKey: await ownApiKey(owner, name, `${name}-password`) });
    }
    const datasetId = await createPublishedDataset(owner, ws, 'writes', 2);
    const importId = await createPublishedDataset(owner, ws, 'imported', 1);
    // Records the annotators answer; made before any kill.
    const targets = (
      await must(
        owner.put(`/datasets/${datasetId}/records/bulk`, { items: Array.from({ length: 300 }, (_, i) => ({ external_id: `target-${i}`, fields: { text: `target ${i}` } })) }),
        200,
      )
    ).items.map((r: { id: string }) => r.id) as string[];

    const ackedBatches = new Set<string>();
    const ackedResponses: { recordId: string; userId: string; status: string }[] = [];
    const jobs: string[] = [];
    let nextTarget = 0;

    for (let cycle = 0; cycle < options.cycles; cycle += 1) {
      let stop = false;
      const bulkWriter = async (writer: number) => {
        for (let batch = 0; !stop; batch += 1) {
          const id = `c${cycle}-w${writer}-b${batch}`;
          const items = Array.from({ length: BATCH }, (_, i) => ({ external_id: `${id}-${i}`, fields: { text: `${id} record ${i}` } }));
          try {
            const res = await owner.put(`/datasets/${datasetId}/records/bulk`, { items });
            if (res.status === 200) ackedBatches.add(id);
          } catch {
            return; // connection refused/reset: the server is gone
          }
        }
      };
      const responseWriter = async (annotator: { id: string; apiKey: string }, slice: string[]) => {
        const api = owner.as({ apiKey: annotator.apiKey });
        for (const [i, recordId] of slice.entries()) {
          if (stop) return;
          const status = i % 5 === 4 ? 'discarded' : 'submitted';
          try {
            const res = await api.post(`/records/${recordId}/responses`, { status, values: { label: { value: 'positive' } } });
            if (res.status === 201) ackedResponses.push({ recordId, userId: annotator.id, status });
          } catch {
            return;
          }
        }
      };
      const slice = targets.slice(nextTarget, nextTarget + 100);
      nextTarget += 100;
      if (cycle === 0) {
        const job = await must(
          owner.post(`/datasets/${importId}/import`, { name: 'scholia/sentiment', subset: 'default', split: 'train', mapping: { fields: [{ source: 'text', target: 'text' }] } }),
          202,
        );
        jobs.push(job.id);
      }
      const writers = [bulkWriter(0), bulkWriter(1), ...annotators.map((a) => responseWriter(a, slice))];
      await sleep(minDelay + Math.random() * (maxDelay - minDelay));
      await server.kill();
      report.kills += 1;
      stop = true;
      await Promise.all(writers);
      server = await startChildServer({ dataDir, env });
      owner = new TestApi(server.url, { apiKey: CHILD_OWNER.apiKey });
      options.log?.(`cycle ${cycle}: killed after ${ackedBatches.size} acked batches, ${ackedResponses.length} acked responses`);
    }

    // Jobs: orphans are failed at boot, queued ones run to the end.
    for (const jobId of jobs) {
      let status = '';
      for (let i = 0; i < 600 && !FINAL_JOB.includes(status); i += 1) {
        status = (await owner.get(`/jobs/${jobId}`)).body?.status ?? '';
        if (!FINAL_JOB.includes(status)) await sleep(100);
      }
      if (!FINAL_JOB.includes(status)) {
        report.jobsNotFinal += 1;
        report.problems.push(`job ${jobId} ended ${status}`);
      }
    }
    const imported = (await owner.get(`/datasets/${importId}/progress`)).body.total as number;
    // The import writes batches of 100 in one transaction each (contract §2.4); 10,000 is the cap.
    if (imported % 100 !== 0) report.problems.push(`import left ${imported} records: a half-written batch`);

    // Every record of the write dataset, with responses.
    const records: { id: string; external_id: string; status: string; responses: { user_id: string; status: string }[] }[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await must(owner.get(`/datasets/${datasetId}/records?offset=${offset}&limit=1000&include=responses`), 200);
      records.push(...page.items);
      if (page.items.length < 1000) break;
    }
    const perBatch = new Map<string, number>();
    for (const record of records) {
      const match = /^(c\d+-w\d+-b\d+)-\d+$/.exec(record.external_id);
      if (match) perBatch.set(match[1], (perBatch.get(match[1]) ?? 0) + 1);
    }
    for (const [batch, count] of perBatch) {
      if (count !== BATCH) {
        report.halfWrittenBatches += 1;
        report.problems.push(`batch ${batch} has ${count}/${BATCH} records`);
      }
    }
    for (const batch of ackedBatches) {
      if (perBatch.get(batch) !== BATCH) {
        report.lostWrites += 1;
        report.problems.push(`acknowledged batch ${batch} has ${perBatch.get(batch) ?? 0}/${BATCH} records`);
      }
    }
    const byId = new Map(records.map((r) => [r.id, r]));
    for (const ack of ackedResponses) {
      const found = byId.get(ack.recordId)?.responses.find((r) => r.user_id === ack.userId);
      if (!found || found.status !== ack.status) {
        report.lostWrites += 1;
        report.problems.push(`acknowledged response of ${ack.userId} on ${ack.recordId} is ${found?.status ?? 'missing'}`);
      }
    }
    for (const record of records) {
      const submitted = record.responses.filter((r) => r.status === 'submitted').length;
      const want = submitted >= 2 ? 'completed' : 'pending';
      if (record.status !== want) {
        report.statusMismatches += 1;
        report.problems.push(`record ${record.id} is ${record.status} with ${submitted} submitted responses`);
      }
    }
    // Text search: every written record is in the text index once, queued words included (the
    // indexer goes on from its last committed batch after each kill).
    const written = records.filter((record) => /^c\d+-w\d+-b\d+-\d+$/.test(record.external_id ?? '')).length;
    let indexed = -1;
    for (let attempt = 0; attempt < 60 && indexed !== written; attempt += 1) {
      if (attempt > 0) await sleep(500);
      indexed = (await must(owner.post(`/datasets/${datasetId}/records/search?limit=1`, { query: { text: { q: 'record' } } }), 200)).total;
    }
    if (indexed !== written) report.problems.push(`text search finds ${indexed} of ${written} written records`);
    report.ackedBatches = ackedBatches.size;
    report.ackedResponses = ackedResponses.length;
    return report;
  } finally {
    await server.stop();
    await hub.close();
  }
}
