import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { Password, UserCreateBody } from '@scholia/shared/contract';
import {
  choice,
  commaList,
  ConfigError,
  folderPath,
  folderWith,
  integer,
  parseAddressList,
  parseBoolean,
  parseDatabaseUrl,
  parseHost,
  parseHttpUrl,
  parseOriginList,
  parsePort,
  refusal,
  setting,
  text,
  type Env,
  type Setting,
} from './config-values.js';
import { BULK_BODY_MAX_BYTES } from './lib/work-limits.js';
import { parseRemoteRegistrations, parseRemotesFile, type RemoteRegistrations } from './remotes/remote-registrations.js';
import { DEFAULT_POOL_SIZE, DEFAULT_SQLITE_CACHE_MIB } from './storage/open-database.js';
import { classifyAddress } from './webhooks/target-address.js';
import type { PrivateTargets } from './webhooks/webhook-target.js';

/** Runtime settings, read once from the environment (documented in docs/configuration.md). */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `sqlite:<file>` or `postgres://...` */
  databaseUrl: string;
  /** PostgreSQL connections per process, all opened at start by the server. */
  databasePoolSize: number;
  /** SQLite's own page cache per connection, in MiB. */
  sqliteCacheMiB: number;
  /** PostgreSQL: use pgvector when the extension is available (SCHOLIA_PGVECTOR=off: never). */
  pgvector: boolean;
  owner: { username?: string; password?: string; apiKey?: string };
  jwtSecret?: string;
  jwtLifetimeSeconds: number;
  /** Folder of built frontends to serve (shell at /, remotes under /remotes/<name>/). */
  webDir?: string;
  /** Remotes registered at run time, over the build's remotes.json (SCHOLIA_REMOTES, a JSON object). */
  remotes: RemoteRegistrations;
  /** A JSON file of the same shape, re-read when it changes and over SCHOLIA_REMOTES (SCHOLIA_REMOTES_FILE). */
  remotesFile?: string;
  /** Owners may load a remote from a dev server on localhost in their own browser (SCHOLIA_REMOTE_OVERRIDES, default off). */
  remoteOverrides: boolean;
  /** Serve the web build's `*.map` files (SCHOLIA_SERVE_SOURCE_MAPS, default off: they show the source). */
  serveSourceMaps: boolean;
  logLevel: LogLevel;
  frameAncestors: string[];
  /** Web origins whose pages may call the API and load the remotes cross-origin (SCHOLIA_CORS_ORIGINS, comma-separated; unset: none). */
  corsOrigins: string[];
  /** Sign-in attempts a minute from one client address, whatever the usernames (SCHOLIA_LOGIN_RATE_LIMIT; 0: no limit). */
  loginRateLimitPerMinute: number;
  /** Failed sign-ins on one username before each further attempt waits 1 s, 2 s… (SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES; 0: off). */
  loginBackoffAfterFailures: number;
  /**
   * Reverse proxies whose `X-Forwarded-For` names the client (SCHOLIA_TRUSTED_PROXIES: comma-separated
   * addresses or CIDR ranges); without them every client behind a proxy shares the proxy's sign-in limit.
   */
  trustedProxies: string[];
  /**
   * Bytes of bulk write bodies in flight at once: over all users (SCHOLIA_BULK_BODIES_MIB) and for
   * one user (SCHOLIA_BULK_BODIES_PER_USER_MIB); a bulk write past either waits or gets 429.
   */
  bulkBodyBudget: { serverBytes: number; userBytes: number };
  /** Hugging Face Hub base URL (repos, parquet files, whoami). Tests point it at the fake hub. */
  hubUrl: string;
  /** Hugging Face dataset viewer ("datasets-server") base URL. */
  datasetsServerUrl: string;
  /** `inline` (default): the server process runs background jobs; `external`: only `src/worker.ts` does. */
  jobWorkers: 'inline' | 'external';
  /**
   * Non-public webhook targets allowed: `all` (SCHOLIA_WEBHOOKS_ALLOW_PRIVATE=true), `none` (=false);
   * unset: `loopback` when the server listens only on loopback (a local install), else `none`.
   */
  webhookPrivateTargets: PrivateTargets;
  /** This process sends queued webhook deliveries (SCHOLIA_WEBHOOKS_DELIVER, default on); off: events are queued for other instances to send. */
  webhooksDeliver: boolean;
  /** `GET /metrics` answers requests bearing this token; unset: no metrics route (SCHOLIA_METRICS_TOKEN). */
  metricsToken?: string;
  /** `/settings`: offer sharing one's progress (SCHOLIA_SHARE_YOUR_PROGRESS). */
  shareYourProgress: boolean;
  /** Set on a Hugging Face Space (SPACE_ID and the Space's other variables). */
  space?: {
    id: string;
    title?: string;
    host?: string;
    subdomain?: string;
    authorName?: string;
    persistentStorage: boolean;
    /** The browser may warn that a Space without persistent storage loses data. */
    showStorageWarning: boolean;
  };
  /** Sign in with Hugging Face (OpenID Connect); disabled unless a client id and secret are set. */
  huggingfaceOAuth: {
    clientId?: string;
    clientSecret?: string;
    /** OpenID provider base URL; discovery document at `<url>/.well-known/openid-configuration`. */
    openidUrl: string;
    scope: string;
    /**
     * Fixed callback URL; on a Space `https://<SPACE_HOST>/oauth/huggingface/callback`. Unset: the
     * origin a trusted proxy forwards, else `http://localhost:<port>` (never the `Host` header).
     */
    redirectUri?: string;
    /**
     * Username that becomes owner on first sign-in (contract §1.3, env USERNAME); its first sign-in
     * also links the unlinked local account of that name (docs/security.md).
     */
    ownerUsername?: string;
    /** Workspaces new OAuth users join (created when missing). */
    workspaces: string[];
  };
}

const LARGEST_BODY_MIB = BULK_BODY_MAX_BYTES / 1024 / 1024;

const LOG_LEVELS = ['info', 'fatal', 'error', 'warn', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every environment variable the server and the job worker read, and how: one entry each. A value
 * a reader refuses stops the start with a ConfigError that names the variable; docs/configuration.md
 * documents exactly these (a test compares the two).
 */
export const SETTINGS = {
  SCHOLIA_PORT: setting(parsePort, 6900),
  SCHOLIA_HOST: setting(parseHost, '0.0.0.0'),
  SCHOLIA_DATA_DIR: setting(folderPath, path.resolve('./data')),
  SCHOLIA_WEB_DIR: setting(folderWith('index.html', 'build the web app with `node scripts/build-web.mjs` or leave the variable unset'), undefined),
  SCHOLIA_REMOTES: setting(parseRemoteRegistrations, {}),
  SCHOLIA_REMOTES_FILE: setting(parseRemotesFile, undefined),
  SCHOLIA_REMOTE_OVERRIDES: setting(parseBoolean, false),
  SCHOLIA_SERVE_SOURCE_MAPS: setting(parseBoolean, false),
  SCHOLIA_LOG_LEVEL: setting<LogLevel>(choice(LOG_LEVELS), 'info'),
  SCHOLIA_METRICS_TOKEN: setting(parseMetricsToken, undefined),
  SCHOLIA_DATABASE_URL: setting(parseDatabaseUrl, undefined),
  SCHOLIA_DATABASE_POOL_SIZE: setting(integer(1, 1000, DEFAULT_POOL_SIZE), DEFAULT_POOL_SIZE),
  SCHOLIA_PGVECTOR: setting(parseBoolean, true),
  SCHOLIA_SQLITE_CACHE_MIB: setting(integer(1, 65536, DEFAULT_SQLITE_CACHE_MIB), DEFAULT_SQLITE_CACHE_MIB),
  SCHOLIA_OWNER_USERNAME: setting(parseUsername, undefined),
  SCHOLIA_OWNER_PASSWORD: setting(parsePassword, undefined),
  SCHOLIA_OWNER_API_KEY: setting(text, undefined),
  SCHOLIA_JWT_SECRET: setting(text, undefined),
  SCHOLIA_JWT_LIFETIME_SECONDS: setting(integer(60, 31_536_000, 86400), 86400),
  SCHOLIA_LOGIN_RATE_LIMIT: setting(integer(0, 1_000_000, 20), 20),
  SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES: setting(integer(0, 1000, 5), 5),
  SCHOLIA_TRUSTED_PROXIES: setting(parseAddressList, []),
  SCHOLIA_CORS_ORIGINS: setting(parseOriginList, []),
  // A user's share holds at least one body of the largest size, else such a body could never be read.
  SCHOLIA_BULK_BODIES_MIB: setting(integer(LARGEST_BODY_MIB, 1_048_576, 2 * LARGEST_BODY_MIB), 2 * LARGEST_BODY_MIB),
  SCHOLIA_BULK_BODIES_PER_USER_MIB: setting(integer(LARGEST_BODY_MIB, 1_048_576, LARGEST_BODY_MIB), LARGEST_BODY_MIB),
  SCHOLIA_FRAME_ANCESTORS: setting((raw) => raw.split(/\s+/).filter(Boolean), ["'self'"]),
  // Argilla's names (a Space's start script maps OAUTH_CLIENT_ID/SECRET onto them) or ours.
  SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_ID: setting(text, undefined, ['OAUTH2_HUGGINGFACE_CLIENT_ID']),
  SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET: setting(text, undefined, ['OAUTH2_HUGGINGFACE_CLIENT_SECRET']),
  SCHOLIA_OPENID_URL: setting(parseHttpUrl, 'https://huggingface.co', ['OPENID_PROVIDER_URL']),
  SCHOLIA_OAUTH2_HUGGINGFACE_SCOPE: setting(text, 'openid profile', ['OAUTH2_HUGGINGFACE_SCOPE']),
  SCHOLIA_OAUTH2_HUGGINGFACE_REDIRECT_URI: setting(parseHttpUrl, undefined),
  SCHOLIA_OAUTH2_OWNER_USERNAME: setting(text, undefined),
  SCHOLIA_OAUTH2_HUGGINGFACE_WORKSPACES: setting(commaList, undefined),
  SCHOLIA_HUB_URL: setting(parseHttpUrl, 'https://huggingface.co'),
  SCHOLIA_DATASETS_SERVER_URL: setting(parseHttpUrl, 'https://datasets-server.huggingface.co'),
  SPACE_ID: setting(text, undefined),
  SPACE_TITLE: setting(text, undefined),
  SPACE_HOST: setting(text, undefined),
  SPACE_SUBDOMAIN: setting(text, undefined),
  SPACE_AUTHOR_NAME: setting(text, undefined),
  // Argilla's Space setting; off a Space it is often the shell's login name, so only read on one.
  USERNAME: setting(text, undefined),
  PERSISTANT_STORAGE_ENABLED: setting(parseBoolean, false, ['PERSISTENT_STORAGE_ENABLED']),
  SCHOLIA_SHOW_SPACE_STORAGE_WARNING: setting(parseBoolean, true, ['ARGILLA_SHOW_HUGGINGFACE_SPACE_PERSISTENT_STORAGE_WARNING']),
  SCHOLIA_SHARE_YOUR_PROGRESS: setting(parseBoolean, false),
  // Unset is a third answer: loopback targets when the server listens on loopback only.
  SCHOLIA_WEBHOOKS_ALLOW_PRIVATE: setting(parseBoolean, undefined),
  SCHOLIA_WEBHOOKS_DELIVER: setting(parseBoolean, true),
  SCHOLIA_JOB_WORKERS: setting<'inline' | 'external'>(choice(['inline', 'external'] as const), 'inline'),
} satisfies Record<string, Setting<unknown>>;

type Settings = { [Name in keyof typeof SETTINGS]: ReturnType<(typeof SETTINGS)[Name]['read']> };

/** Reads every entry of SETTINGS; the first refused value throws. */
function readSettings(env: Env): Settings {
  return Object.fromEntries(Object.entries(SETTINGS).map(([name, entry]) => [name, entry.read(env, name)])) as Settings;
}

export function readConfig(env: Env = process.env): AppConfig {
  const s = readSettings(env);
  const oauthId = s.SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_ID;
  const oauthSecret = s.SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET;
  // One without the other would leave sign-in with Hugging Face off without a word.
  if (Boolean(oauthId) !== Boolean(oauthSecret)) {
    const [set, missing] = oauthId ? ['CLIENT_ID', 'CLIENT_SECRET'] : ['CLIENT_SECRET', 'CLIENT_ID'];
    throw new ConfigError(
      `SCHOLIA_OAUTH2_HUGGINGFACE_${missing} must be set when SCHOLIA_OAUTH2_HUGGINGFACE_${set} is (e.g. both from the Hugging Face OAuth app), or neither`,
    );
  }
  // A dev server's scripts have no place on a production server.
  if (s.SCHOLIA_REMOTE_OVERRIDES && (s.SPACE_ID || env.NODE_ENV === 'production')) {
    const where = s.SPACE_ID ? 'on a Hugging Face Space (SPACE_ID is set)' : 'with NODE_ENV=production';
    throw new ConfigError(`SCHOLIA_REMOTE_OVERRIDES=true is for development servers only; it is refused ${where}`);
  }
  // The server's share must hold one user's, else the per-user setting would promise what it cannot.
  if (s.SCHOLIA_BULK_BODIES_MIB < s.SCHOLIA_BULK_BODIES_PER_USER_MIB) {
    throw new ConfigError(`SCHOLIA_BULK_BODIES_MIB (${s.SCHOLIA_BULK_BODIES_MIB}) must be at least SCHOLIA_BULK_BODIES_PER_USER_MIB (${s.SCHOLIA_BULK_BODIES_PER_USER_MIB}) (e.g. SCHOLIA_BULK_BODIES_MIB=${2 * s.SCHOLIA_BULK_BODIES_PER_USER_MIB})`);
  }
  const space = s.SPACE_ID
    ? {
        id: s.SPACE_ID,
        title: s.SPACE_TITLE,
        host: s.SPACE_HOST,
        subdomain: s.SPACE_SUBDOMAIN,
        authorName: s.SPACE_AUTHOR_NAME,
        persistentStorage: s.PERSISTANT_STORAGE_ENABLED,
        showStorageWarning: s.SCHOLIA_SHOW_SPACE_STORAGE_WARNING,
      }
    : undefined;
  return {
    port: s.SCHOLIA_PORT,
    host: s.SCHOLIA_HOST,
    dataDir: s.SCHOLIA_DATA_DIR,
    databaseUrl: s.SCHOLIA_DATABASE_URL ?? `sqlite:${path.join(s.SCHOLIA_DATA_DIR, 'scholia.db')}`,
    databasePoolSize: s.SCHOLIA_DATABASE_POOL_SIZE,
    sqliteCacheMiB: s.SCHOLIA_SQLITE_CACHE_MIB,
    pgvector: s.SCHOLIA_PGVECTOR,
    owner: { username: s.SCHOLIA_OWNER_USERNAME, password: s.SCHOLIA_OWNER_PASSWORD, apiKey: s.SCHOLIA_OWNER_API_KEY },
    jwtSecret: s.SCHOLIA_JWT_SECRET,
    jwtLifetimeSeconds: s.SCHOLIA_JWT_LIFETIME_SECONDS,
    webDir: s.SCHOLIA_WEB_DIR,
    remotes: s.SCHOLIA_REMOTES,
    remotesFile: s.SCHOLIA_REMOTES_FILE,
    remoteOverrides: s.SCHOLIA_REMOTE_OVERRIDES,
    serveSourceMaps: s.SCHOLIA_SERVE_SOURCE_MAPS,
    logLevel: s.SCHOLIA_LOG_LEVEL,
    frameAncestors: s.SCHOLIA_FRAME_ANCESTORS,
    corsOrigins: s.SCHOLIA_CORS_ORIGINS,
    loginRateLimitPerMinute: s.SCHOLIA_LOGIN_RATE_LIMIT,
    loginBackoffAfterFailures: s.SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES,
    trustedProxies: s.SCHOLIA_TRUSTED_PROXIES,
    bulkBodyBudget: { serverBytes: s.SCHOLIA_BULK_BODIES_MIB * 1024 * 1024, userBytes: s.SCHOLIA_BULK_BODIES_PER_USER_MIB * 1024 * 1024 },
    hubUrl: s.SCHOLIA_HUB_URL,
    datasetsServerUrl: s.SCHOLIA_DATASETS_SERVER_URL,
    jobWorkers: s.SCHOLIA_JOB_WORKERS,
    webhookPrivateTargets: webhookPrivateTargets(s.SCHOLIA_WEBHOOKS_ALLOW_PRIVATE, s.SCHOLIA_HOST),
    webhooksDeliver: s.SCHOLIA_WEBHOOKS_DELIVER,
    metricsToken: s.SCHOLIA_METRICS_TOKEN,
    shareYourProgress: s.SCHOLIA_SHARE_YOUR_PROGRESS,
    space,
    huggingfaceOAuth: {
      clientId: oauthId,
      clientSecret: oauthSecret,
      openidUrl: s.SCHOLIA_OPENID_URL,
      scope: s.SCHOLIA_OAUTH2_HUGGINGFACE_SCOPE,
      redirectUri: s.SCHOLIA_OAUTH2_HUGGINGFACE_REDIRECT_URI ?? (space?.host ? `https://${space.host}/oauth/huggingface/callback` : undefined),
      ownerUsername: s.SCHOLIA_OAUTH2_OWNER_USERNAME ?? (space ? s.USERNAME : undefined),
      // A Space's OAuth template lets new users into `admin` (hub-contract §6), so they see its datasets.
      workspaces: s.SCHOLIA_OAUTH2_HUGGINGFACE_WORKSPACES ?? (space ? ['admin'] : []),
    },
  };
}

function webhookPrivateTargets(allowPrivate: boolean | undefined, host: string): PrivateTargets {
  if (allowPrivate !== undefined) return allowPrivate ? 'all' : 'none';
  // Only this machine can reach a server on loopback: its webhooks go to receivers on the same machine.
  return host === 'localhost' || classifyAddress(host) === 'loopback' ? 'loopback' : 'none';
}

/** What openDatabase takes from the settings. */
export function databaseOptions(config: AppConfig): { pgvector: boolean; poolSize: number; sqliteCacheMiB: number } {
  return { pgvector: config.pgvector, poolSize: config.databasePoolSize, sqliteCacheMiB: config.sqliteCacheMiB };
}

/** The app's own password bounds (POST /users). */
function parsePassword(raw: string, name: string): string {
  const { minLength, maxLength } = Password;
  const length = raw.length;
  if (Value.Check(Password, raw)) return raw;
  // The value itself is never printed.
  throw new ConfigError(`${name} must be ${minLength} to ${maxLength} characters long, not ${length} (e.g. ${name}=correct-horse-battery)`);
}

/**
 * A username POST /users would take, without spaces or control characters: a variable read from a
 * file often ends in a space or newline, and an owner created with it could not be signed in as.
 */
function parseUsername(raw: string, name: string): string {
  if (!Value.Check(UserCreateBody.properties.username, raw) || /[\s\p{Cc}]/u.test(raw)) {
    throw refusal(name, 'a username without spaces that the app accepts', raw, `${name}=owner`);
  }
  return raw;
}

/** A guard, not a name: long enough not to be guessed, printable so a scraper's file can hold it. */
function parseMetricsToken(raw: string, name: string): string {
  if (raw.length >= 16 && /^[\x21-\x7e]+$/.test(raw)) return raw;
  throw new ConfigError(`${name} must be at least 16 printable characters without spaces, not ${raw.length} characters (e.g. the output of openssl rand -hex 24)`);
}
