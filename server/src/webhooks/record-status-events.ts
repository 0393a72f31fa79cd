import type { Kysely } from 'kysely';
import { enqueueJob, saveJobProgress } from '../jobs/job-queue.js';
import type { JobContext } from '../jobs/job-worker.js';
import { EventLoopSlices } from '../lib/event-loop-slices.js';
import { fromJson } from '../storage/json.js';
import { findDatasetById } from '../storage/repositories/datasets.repository.js';
import { listRecordsAfter } from '../storage/repositories/records.repository.js';
import type { DatasetRow, Tables } from '../storage/tables.js';
import { datasetEventData, recordEventData } from './webhook-payloads.js';
import { enabledWebhooks, raiseWebhookEvents } from './webhook-events.js';

/**
 * After a task distribution change every record's status is recomputed, and the reference then
 * sends `record.updated` for each record and `record.completed` for each completed one. A dataset
 * may hold 100,000 records or more: the events are queued by a background job, a batch of records
 * per transaction (the deliveries and the job's progress together, so a resumed job neither
 * repeats nor skips a batch), with the event loop free between batches.
 */

export const RECORD_STATUS_EVENTS_JOB = 'record-status-events';

const EVENTS = ['record.updated', 'record.completed'] as const;
/** Records a batch: a batch's payloads are built and written within a few milliseconds. */
const BATCH_RECORDS = 200;

interface Progress {
  dataset_id: string;
  /** The webhooks subscribed when the distribution changed: later ones did not ask for this change. */
  webhook_ids: string[];
  /** The last record (by rid) whose events are queued. */
  after_rid: number;
}

/** Queues the job in the transaction that changed the distribution, when some webhook listens. */
export async function queueRecordStatusEvents(trx: Kysely<Tables>, dataset: DatasetRow): Promise<void> {
  const subscribed = (await enabledWebhooks(trx)).filter((webhook) => fromJson<string[]>(webhook.events).some((event) => (EVENTS as readonly string[]).includes(event)));
  if (subscribed.length === 0) return;
  const progress: Progress = { dataset_id: dataset.id, webhook_ids: subscribed.map((webhook) => webhook.id), after_rid: 0 };
  await enqueueJob(trx, RECORD_STATUS_EVENTS_JOB, { ...progress });
}

export async function runRecordStatusEventsJob({ job, payload, database, signal }: JobContext): Promise<{ records: number }> {
  const { db } = database;
  const progress = payload as unknown as Progress;
  const slices = new EventLoopSlices(RECORD_STATUS_EVENTS_JOB);
  let records = 0;
  for (;;) {
    signal.throwIfAborted();
    const done = await db.transaction().execute(async (trx) => {
      const dataset = await findDatasetById(trx, progress.dataset_id);
      const webhooks = (await enabledWebhooks(trx)).filter((webhook) => progress.webhook_ids.includes(webhook.id));
      if (!dataset || webhooks.length === 0) return true;
      const batch = await listRecordsAfter(trx, dataset.id, progress.after_rid, BATCH_RECORDS);
      if (batch.length === 0) return true;
      const datasetData = await datasetEventData(trx, dataset);
      const data = batch.map((record) => recordEventData(record, datasetData));
      await raiseWebhookEvents(trx, 'record.updated', () => data, webhooks);
      await raiseWebhookEvents(trx, 'record.completed', () => data.filter((record) => record.status === 'completed'), webhooks);
      progress.after_rid = batch[batch.length - 1].rid;
      await saveJobProgress(trx, job, { ...progress });
      records += batch.length;
      return batch.length < BATCH_RECORDS;
    });
    if (done) return { records };
    await slices.between();
  }
}
