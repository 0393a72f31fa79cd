import './bootstrap/supported-node.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ensureFirstOwner, type CreatedOwner } from './bootstrap/first-owner.js';
import { exitWithStartupFailure } from './bootstrap/startup-failure.js';
import { databaseOptions, readConfig, type AppConfig } from './config.js';
import { processLogger } from './lib/process-log.js';
import { openDatabase } from './storage/open-database.js';
import { assertWritableFolder } from './storage/writable-storage.js';

// Any failure before the server listens ends the process with one readable log line, not a stack.
let config: AppConfig | undefined;
try {
  config = readConfig();
  await start(config);
} catch (error) {
  exitWithStartupFailure('Scholia', error, config);
}

async function start(config: AppConfig): Promise<void> {
  config.webDir ??= path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web');
  // With SQLite the data folder holds the database and the generated secret: refuse to start
  // rather than answer every write with an error.
  if (!config.databaseUrl.startsWith('postgres')) assertWritableFolder(config.dataDir, 'data folder (SCHOLIA_DATA_DIR)');
  const database = await openDatabase(config.databaseUrl, { ...databaseOptions(config), warmPool: true });
  const owner = await ensureFirstOwner(database.db, config.owner, config.dataDir);
  const app = await buildApp({ config, database });
  if (database.pgvectorUnavailable) {
    app.log.warn({ reason: database.pgvectorUnavailable }, 'pgvector is off: similarity search scans every vector of a set (SCHOLIA_PGVECTOR=off silences this)');
  }
  if (owner) logFirstOwner(config, owner);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }

  await app.listen({ port: config.port, host: config.host });
}

/**
 * Once, on the first start of an empty database: who the owner is and where its password is,
 * never the password. A generated one asks the operator to act, so it is a warning (shown at
 * SCHOLIA_LOG_LEVEL=warn too).
 */
function logFirstOwner(config: AppConfig, owner: CreatedOwner): void {
  const log = processLogger(config.logLevel);
  if (!owner.passwordFile) {
    log.info({ owner: { username: owner.username } }, `Created the first owner account "${owner.username}" with the password from SCHOLIA_OWNER_PASSWORD`);
    return;
  }
  log.warn(
    // Not "passwordFile": a key naming a password has its value redacted.
    { owner: { username: owner.username, file: owner.passwordFile } },
    `Created the first owner account "${owner.username}"; its generated password is in ${owner.passwordFile} (readable only by this account): sign in, change the password on My settings → Password and delete the file`,
  );
}
