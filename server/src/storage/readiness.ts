import { sql } from 'kysely';
import type { Database } from './dialect.js';
import { migrations } from './migrations/index.js';

/** Past this a probe answers "not ready" rather than waiting with the requests it stands for. */
const READINESS_TIMEOUT_MS = 3_000;

/**
 * Why the server cannot serve requests now, or undefined when it can: the database answers a
 * query and holds every migration this version has. The reason names no host or credential
 * (the readiness route is public).
 */
export async function databaseUnreadiness(database: Database, timeoutMs = READINESS_TIMEOUT_MS): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const applied = await Promise.race([appliedMigrations(database), timeout]);
    if (applied === 'timeout') return `The database did not answer within ${timeoutMs / 1000} s`;
    const missing = Object.keys(migrations).filter((name) => !applied.has(name));
    if (missing.length > 0) return `Database migrations not applied: ${missing.join(', ')}`;
    return undefined;
  } catch (error) {
    return `The database cannot be reached (${errorCode(error)})`;
  } finally {
    clearTimeout(timer);
  }
}

async function appliedMigrations(database: Database): Promise<Set<string>> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(database.db);
  return new Set(rows.map((row) => row.name));
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) return errorCode(error.errors[0]);
  return error instanceof Error ? error.name : 'unknown error';
}
