import { HUB_EXPORT_JOB, runHubExportJob } from '../hub/hub-export.js';
import { HUB_IMPORT_JOB, runHubImportJob } from '../hub/hub-import.js';
import { RECORD_STATUS_EVENTS_JOB, runRecordStatusEventsJob } from '../webhooks/record-status-events.js';
import type { JobHandler } from './job-worker.js';

/** Every job type this server knows, with its handler. Workers claim only these types. */
export function createJobHandlers(): Record<string, JobHandler> {
  return {
    [HUB_IMPORT_JOB]: runHubImportJob,
    [HUB_EXPORT_JOB]: runHubExportJob,
    [RECORD_STATUS_EVENTS_JOB]: runRecordStatusEventsJob,
  };
}
