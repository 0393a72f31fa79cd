import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import type { Database, DialectName } from './dialect.js';
import { migrations } from './migrations/index.js';
import { reusedStatement } from './statement-cache.js';
import { preparePgvector } from './search/pgvector.js';
import { NO_EMBEDDING_FILLER, startEmbeddingFiller } from './search/embedding-filler.js';
import { attachTextIndexFile, prepareTextIndexFile } from './search/text-index-file.js';
import { sameConnectionReads, SqliteSearchReads } from './search/search-reader.js';
import { PostgresSearchReads } from './search/postgres-search-reads.js';
import { EXPENSIVE_MAX_RUNNING, SEARCH_TIME_BUDGET_MS } from '../lib/work-limits.js';
import { NO_TEXT_INDEXER, startSqliteTextIndexer } from './search/text-indexer.js';
import type { Tables } from './tables.js';
import { assertWritableFolder, assertWritableSqlite } from './writable-storage.js';

/**
 * Open the database named by `url` (`sqlite:<file>`, `sqlite::memory:` or `postgres://...`) and
 * migrate it; on PostgreSQL, take pgvector into use when it is available, unless `pgvector` is false.
 */
export interface OpenDatabaseOptions {
  /** PostgreSQL: take pgvector into use when available (default true). */
  pgvector?: boolean;
  /** PostgreSQL connections in the pool (SCHOLIA_DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** SQLite's page cache per connection in MiB (SCHOLIA_SQLITE_CACHE_MIB). */
  sqliteCacheMiB?: number;
  warmPool?: boolean;
  /**
   * Whether this process applies the SQLite text index queue and fills pgvector embeddings
   * (default true). The server does: an external job worker leaves it to the server.
   */
  textIndexer?: boolean;
  /**
   * Whether searches read through a reader of their own (default true): on a SQLite file a thread
   * (storage/search/search-reader.ts; `every-statement` sends every search statement there, for
   * tests), on PostgreSQL a pool (storage/search/postgres-search-reads.ts). Processes that run no
   * searches (an external job worker, a copy) leave it off.
   */
  searchReader?: boolean | 'every-statement';
}

export async function openDatabase(url: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const database = url.startsWith('postgres')
    ? await openPostgres(url, { warm: options.warmPool ?? false, searchPool: options.searchReader !== false, size: options.poolSize ?? DEFAULT_POOL_SIZE })
    : openSqlite(url.replace(/^sqlite:/, ''), options.sqliteCacheMiB ?? DEFAULT_SQLITE_CACHE_MIB);
  await migrateToLatest(database);
  if (database.dialect === 'postgres') {
    const pgvector = await preparePgvector(database.db, options.pgvector ?? true);
    database.pgvectorUnavailable = pgvector.unavailable;
    if (pgvector.enabled && options.textIndexer !== false) database.embeddingFiller = startEmbeddingFiller(database.db);
  } else prepareTextIndexFile(sqliteHandle(database.db));
  if (options.textIndexer !== false && database.dialect === 'sqlite') database.textIndexer = startSqliteTextIndexer(sqliteHandle(database.db));
  if (options.searchReader !== false && database.dialect === 'sqlite') database.searchReads = sqliteSearchReads(database.db, options.searchReader === 'every-statement');
  return database;
}

/** A SQLite file's search reader thread; an in-memory database cannot be opened by another connection. */
function sqliteSearchReads(db: Kysely<Tables>, everyStatement: boolean) {
  const sqlite = sqliteHandle(db);
  if (sqlite.memory) return sameConnectionReads(db);
  return new SqliteSearchReads(db, sqlite.name, (reader) => sqliteHandles.set(reader, sqlite), everyStatement);
}

/** A handle with no background work yet (openDatabase starts it where it applies); closing stops that work before the connection. */
function newDatabase(db: Kysely<Tables>, dialect: DialectName): Database {
  const database: Database = {
    db,
    dialect,
    textIndexer: NO_TEXT_INDEXER,
    embeddingFiller: NO_EMBEDDING_FILLER,
    searchReads: sameConnectionReads(db),
    async close() {
      await Promise.all([database.textIndexer.close(), database.embeddingFiller.close(), database.searchReads.close()]);
      await db.destroy();
    },
  };
  return database;
}

function openSqlite(file: string, cacheMiB: number): Database {
  // The database's folder holds its -wal and -shm files beside it: it must be writable too.
  if (file !== ':memory:') assertWritableFolder(path.dirname(path.resolve(file)), 'database folder');
  const sqlite = new SQLite(file);
  sqlite.pragma('busy_timeout = 5000');
  // Before WAL is switched on, itself a write: a read-only file gets the message that says so.
  if (file !== ':memory:') assertWritableSqlite(sqlite, path.resolve(file));
  // limits.md §1: WAL + NORMAL keeps bulk writes fast and still durable across process crashes.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`cache_size = -${cacheMiB * 1024}`);
  sqlite.pragma('temp_store = MEMORY');
  // Checkpoints (copying the write-ahead log into the file, with an fsync) run on the text
  // indexer's thread (storage/search/wal-checkpoint.ts): on this connection they held the event
  // loop for tens of ms every few bulk writes. This is the bound if that thread falls behind.
  sqlite.pragma(`wal_autocheckpoint = ${SERVER_CHECKPOINT_PAGES}`);
  attachTextIndexFile(sqlite, file);
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  sqliteHandles.set(db, sqlite);
  return newDatabase(db, 'sqlite');
}

/** Pages of write-ahead log (4 KiB each) past which the server's own connection checkpoints. */
const SERVER_CHECKPOINT_PAGES = 16_384;

/**
 * SQLite's own page cache per connection. The operating system caches the file as well; at a
 * million records 16 MiB searched as fast as 64 MiB did and keeps 48 MiB out of the server's
 * resident memory (the 1M-record figures, docs/performance.md).
 */
export const DEFAULT_SQLITE_CACHE_MIB = 16;

/** PostgreSQL connections per process. */
export const DEFAULT_POOL_SIZE = 10;

/**
 * `warm` (the server): every pooled connection is opened now and kept while idle. Opening one
 * costs a PostgreSQL backend start; a pool that closed its idle connections opened them again in
 * the first second of a burst of submits, which was that burst's slowest second.
 */
async function openPostgres(url: string, options: { warm: boolean; searchPool: boolean; size: number }): Promise<Database> {
  const { default: pg } = await import('pg');
  // count(*) and bigserial rids arrive as int8 text: rids stay far below 2^53, so read numbers.
  // jsonb stays text, as SQLite returns it: a parsed JSON string scalar (a suggestion value
  // "old") would be indistinguishable from serialised JSON in storage/json.ts fromJson.
  const { INT8, JSON: JSON_OID, JSONB } = pg.types.builtins;
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8) return (value: string) => Number(value);
      if (oid === JSON_OID || oid === JSONB) return (value: string) => value;
      return pg.types.getTypeParser(oid, format ?? 'text');
    }) as typeof pg.types.getTypeParser,
  };
  const size = options.size;
  const pool = new pg.Pool({ connectionString: url, max: size, min: options.warm ? size : 0, types });
  keepAliveThroughOutages(pool);
  if (options.warm) (await Promise.all(Array.from({ length: size }, () => pool.connect()))).forEach((client) => client.release());
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  postgresUrls.set(db, url);
  postgresPools.set(db, pool);
  const database = newDatabase(db, 'postgres');
  if (options.searchPool) {
    // One connection per search that may run at once (the work slots' bound), opened when first used.
    const searchPool = new pg.Pool({ connectionString: url, max: EXPENSIVE_MAX_RUNNING.postgres.read + 1, types, statement_timeout: SEARCH_TIME_BUDGET_MS });
    keepAliveThroughOutages(searchPool);
    database.searchReads = new PostgresSearchReads(searchPool);
  }
  return database;
}

/**
 * A connection lost while PostgreSQL restarts or is unreachable must not end the process. An idle
 * one is reported on the pool; one in use is reported on its client, which has no listener while
 * checked out, so an outage during a query (a background poll) threw. Its query fails either way,
 * and the pool drops the broken client when it is released.
 */
function keepAliveThroughOutages(pool: import('pg').Pool): void {
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
}

const STATEMENT_CACHE_SIZE = 1000;
/**
 * Longer SQL is not kept: multi-row inserts and long IN lists, whose text changes with their row
 * count. Each compiled program holds hundreds of KiB, so a full cache of them held ~100 MiB after
 * a large ingestion, while preparing one costs little next to writing its hundreds of rows.
 */
const CACHED_SQL_MAX_LENGTH = 2_000;

/**
 * Kysely prepares every query anew; preparing costs more than running most of our point queries,
 * so reuse statements by SQL text (statement-cache.ts).
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SQLite.Statement {
      if (sql.length > CACHED_SQL_MAX_LENGTH) return sqlite.prepare(sql);
      return reusedStatement(cache, sql, STATEMENT_CACHE_SIZE, () => sqlite.prepare(sql));
    },
  };
}

const sqliteHandles = new WeakMap<object, SQLite.Database>();

/**
 * The raw better-sqlite3 handle behind a Kysely instance, for the few SQLite-only statements
 * (FTS5 virtual tables) that live in storage/ and nowhere else.
 */
export function sqliteHandle(db: Kysely<Tables>): SQLite.Database {
  const handle = sqliteHandles.get(db);
  if (!handle) throw new Error('not a SQLite database');
  return handle;
}

const postgresUrls = new WeakMap<object, string>();
const postgresPools = new WeakMap<object, import('pg').Pool>();

/** PostgreSQL: the request pool's connections, in use, idle and waited for; undefined on SQLite. */
export function postgresPoolState(db: Kysely<Tables>): { inUse: number; idle: number; waiting: number } | undefined {
  const pool = postgresPools.get(db);
  return pool && { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** The connection URL behind a PostgreSQL Kysely instance, for a worker thread's own connection. */
export function postgresUrl(db: Kysely<Tables>): string {
  const url = postgresUrls.get(db);
  if (!url) throw new Error('not a PostgreSQL database');
  return url;
}

async function migrateToLatest(database: Database): Promise<void> {
  const context = { dialect: database.dialect as DialectName };
  const provider = {
    async getMigrations(): Promise<Record<string, Migration>> {
      return Object.fromEntries(
        Object.entries(migrations).map(([name, m]) => [
          name,
          { up: (db) => m.up(db, context), down: m.down ? (db) => m.down!(db, context) : undefined } satisfies Migration,
        ]),
      );
    },
  };
  const { error, results } = await new Migrator({ db: database.db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (failed) throw new Error(`database migration ${failed.migrationName} failed`, { cause: error });
  if (error) throw migrationRefusal(error);
}

/** An error before any migration ran: most often a database a newer version has migrated. */
function migrationRefusal(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /previously executed migration (\S+) is missing/.exec(message)?.[1];
  if (unknown) {
    return new Error(`The database was migrated by a newer version of Scholia (its migration ${unknown} is unknown to this version): run that version, or restore a backup taken before the upgrade`);
  }
  return new Error('database migrations could not start', { cause: error });
}
