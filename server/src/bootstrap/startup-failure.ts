import { ConfigError } from '../config-values.js';
import { processLogger } from '../lib/process-log.js';
import { storageFailure } from '../plugins/app/storage-failures.js';
import { StorageNotWritableError } from '../storage/writable-storage.js';

/** What a start-up failure message may name: where the server listens and which database it opens. */
export interface StartupSettings {
  host: string;
  port: number;
  databaseUrl: string;
  /** At debug or trace the failure's stack follows its line. */
  logLevel?: string;
}

const CONNECTION_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  '28P01': 'password authentication failed',
  '28000': 'not allowed to connect',
  '3D000': 'the database does not exist',
};

/**
 * One readable line for an error that stopped the server before it listened: bad settings,
 * storage it cannot write, a port in use, a PostgreSQL server it cannot reach. Never the database
 * URL's password; unknown errors give their own message (the stack only at log level debug).
 */
export function describeStartupFailure(error: unknown, settings?: StartupSettings): string {
  if (error instanceof ConfigError || error instanceof StorageNotWritableError) return error.message;
  const code = errorCode(error);
  const listening = settings ? `${settings.host}:${settings.port}` : 'the configured address';
  if (code === 'EADDRINUSE') return `Port ${settings?.port ?? ''} is already in use on ${settings?.host ?? 'this machine'}: stop the program using it or choose another port with SCHOLIA_PORT`;
  if (code === 'EADDRNOTAVAIL') return `Cannot listen on ${listening}: the address does not belong to this machine (SCHOLIA_HOST)`;
  // A PostgreSQL host that cannot be found carries its own name: this is the listening one.
  if (syscall(error) === 'getaddrinfo' && settings && (error as { hostname?: unknown }).hostname === settings.host) {
    return `Cannot listen on ${listening}: the host name ${settings.host} was not found (SCHOLIA_HOST, e.g. SCHOLIA_HOST=127.0.0.1)`;
  }
  if ((code === 'EACCES' || code === 'EPERM') && syscall(error) === 'listen') {
    return `Not allowed to listen on ${listening} (ports below 1024 need extra privileges): choose another port with SCHOLIA_PORT`;
  }
  if (settings?.databaseUrl.startsWith('postgres') && code && CONNECTION_REASONS[code]) {
    return `Cannot connect to PostgreSQL at ${postgresLocation(settings.databaseUrl)} (${CONNECTION_REASONS[code]}): check SCHOLIA_DATABASE_URL and that the database server is running`;
  }
  if (code === 'SQLITE_CANTOPEN') return `Cannot open the SQLite database file ${sqliteFile(settings)}: check that its folder exists and may be read and written`;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return `The SQLite database file ${sqliteFile(settings)} is damaged or not a database file`;
  if (storageFailure(error)?.status === 507) return `The disk is full: ${oneLine(error)}`;
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== null) return `${oneLine(error)}: ${describeStartupFailure(cause, settings)}`;
  return oneLine(error);
}

/**
 * Logs the failure as one JSON line at level fatal (with the error and its stack at debug or
 * trace) and ends the process with status 1. Written whatever SCHOLIA_LOG_LEVEL says, even when
 * that setting is the one refused: a start that stops must say why.
 */
export function exitWithStartupFailure(program: string, error: unknown, settings?: StartupSettings): never {
  const withStack = settings?.logLevel === 'debug' || settings?.logLevel === 'trace';
  processLogger(withStack ? settings.logLevel : 'info').fatal(withStack ? { err: error } : {}, `${program} could not start: ${describeStartupFailure(error, settings)}`);
  process.exit(1);
}

/** A connection to several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError. */
function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) return errorCode(error.errors[0]);
  return undefined;
}

function syscall(error: unknown): unknown {
  return (error as { syscall?: unknown }).syscall;
}

function postgresLocation(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the configured address';
  }
}

function sqliteFile(settings: StartupSettings | undefined): string {
  return settings?.databaseUrl.replace(/^sqlite:/, '') ?? '';
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ').trim() || (error instanceof Error ? error.name : 'unknown error');
}
