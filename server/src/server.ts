import './bootstrap/supported-node.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ensureFirstOwner } from './bootstrap/first-owner.js';
import { exitWithStartupFailure } from './bootstrap/startup-failure.js';
import { databaseOptions, readConfig, type AppConfig } from './config.js';
import { openDatabase } from './storage/open-database.js';
import { assertWritableFolder } from './storage/writable-storage.js';

// Any failure before the server listens ends the process with one readable line, not a stack.
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
  const owner = await ensureFirstOwner(database.db, config.owner);
  const app = await buildApp({ config, database });
  if (database.pgvectorUnavailable) {
    app.log.warn({ reason: database.pgvectorUnavailable }, 'pgvector is off: similarity search scans every vector of a set (SCHOLIA_PGVECTOR=off silences this)');
  }

  if (owner) {
    // Printed once, on the first start of an empty database: the only place the password appears.
    const lines = [
      'Created the first owner account:',
      `  username: ${owner.username}`,
      owner.generatedPassword ? `  password: ${owner.generatedPassword}  (generated; change it or set SCHOLIA_OWNER_PASSWORD)` : '  password: from SCHOLIA_OWNER_PASSWORD',
      // A configured key is already known to the operator: keep it out of logs (only a generated one is shown).
      config.owner.apiKey ? '  api key:  from SCHOLIA_OWNER_API_KEY' : `  api key:  ${owner.apiKey}`,
    ];
    console.log(`\n${lines.join('\n')}\n`);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }

  await app.listen({ port: config.port, host: config.host });
}
