import './bootstrap/supported-node.js';
import { ensureSharedSecret } from './bootstrap/shared-secret.js';
import { exitWithStartupFailure } from './bootstrap/startup-failure.js';
import { databaseOptions, readConfig, type AppConfig } from './config.js';
import { createJobHandlers } from './jobs/job-handlers.js';
import { startJobWorker } from './jobs/job-worker.js';
import { processLogger } from './lib/process-log.js';
import type { Database } from './storage/dialect.js';
import { openDatabase } from './storage/open-database.js';

/**
 * A job worker as its own process (`npx tsx server/src/worker.ts`), for SCHOLIA_JOB_WORKERS=external.
 * Same settings as the server (same database: the job-secrets key is the secret stored there, or SCHOLIA_JWT_SECRET).
 */
let config: AppConfig | undefined;
let database: Database;
try {
  config = readConfig();
  database = await openDatabase(config.databaseUrl, { ...databaseOptions(config), textIndexer: false, searchReader: false });
  await ensureSharedSecret(database, config);
} catch (error) {
  exitWithStartupFailure('The Scholia job worker', error, config);
}
// The same lines and redaction as the server's log: a job's error may quote a URL with a credential in it.
const log = processLogger(config.logLevel);
const worker = startJobWorker({ database, config, handlers: createJobHandlers(), log });
log.info({ workerId: worker.id }, 'job worker started');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void worker
      .stop()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
