import { loadOrCreateSecret } from '../auth/tokens.js';
import type { AppConfig } from '../config.js';
import type { Database } from '../storage/dialect.js';
import { findOrInsertInstanceSetting } from '../storage/repositories/instance-settings.repository.js';

/**
 * Sets `config.jwtSecret` (signs session tokens, keys job secrets) when SCHOLIA_JWT_SECRET does
 * not: the secret stored in the database, so every server instance and worker on one database
 * (PostgreSQL, several processes with their own data folders) shares it. The first process to
 * boot stores its data folder's `jwt-secret`, so tokens and queued jobs of an existing
 * single-process install stay valid.
 */
export async function ensureSharedSecret(database: Database, config: AppConfig): Promise<void> {
  if (config.jwtSecret) return;
  config.jwtSecret = await findOrInsertInstanceSetting(database.db, 'jwt_secret', () => loadOrCreateSecret(config.dataDir));
}
