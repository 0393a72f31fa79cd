import path from 'node:path';
import { ConfigError, readBooleanSetting, readMebibytesSetting, readOriginListSetting, readPortSetting } from './config-values.js';
import { BULK_BODY_MAX_BYTES } from './lib/work-limits.js';
import { readRemoteOverridesSetting, readRemotesFileSetting, readRemotesSetting, type RemoteRegistrations } from './remotes/remote-registrations.js';
import { classifyAddress } from './webhooks/target-address.js';
import type { PrivateTargets } from './webhooks/webhook-target.js';

/** Runtime settings, read once from the environment (documented in the README's table). */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `sqlite:<file>` or `postgres://...` */
  databaseUrl: string;
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
  logLevel: string;
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

export function readConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(env.SCHOLIA_DATA_DIR ?? './data');
  const host = env.SCHOLIA_HOST ?? '0.0.0.0';
  return {
    port: readPortSetting(env, 'SCHOLIA_PORT', 6900),
    host,
    dataDir,
    databaseUrl: env.SCHOLIA_DATABASE_URL ?? `sqlite:${path.join(dataDir, 'scholia.db')}`,
    pgvector: env.SCHOLIA_PGVECTOR !== 'off',
    owner: {
      username: env.SCHOLIA_OWNER_USERNAME || undefined,
      password: env.SCHOLIA_OWNER_PASSWORD || undefined,
      apiKey: env.SCHOLIA_OWNER_API_KEY || undefined,
    },
    jwtSecret: env.SCHOLIA_JWT_SECRET || undefined,
    jwtLifetimeSeconds: Number(env.SCHOLIA_JWT_LIFETIME_SECONDS ?? 86400),
    webDir: env.SCHOLIA_WEB_DIR || undefined,
    remotes: readRemotesSetting(env, 'SCHOLIA_REMOTES'),
    remotesFile: readRemotesFileSetting(env, 'SCHOLIA_REMOTES_FILE'),
    remoteOverrides: readRemoteOverridesSetting(env, 'SCHOLIA_REMOTE_OVERRIDES'),
    serveSourceMaps: readBooleanSetting(env, 'SCHOLIA_SERVE_SOURCE_MAPS', false),
    logLevel: env.SCHOLIA_LOG_LEVEL ?? 'info',
    frameAncestors: (env.SCHOLIA_FRAME_ANCESTORS ?? "'self'").split(/\s+/).filter(Boolean),
    corsOrigins: readOriginListSetting(env, 'SCHOLIA_CORS_ORIGINS'),
    loginRateLimitPerMinute: Number(env.SCHOLIA_LOGIN_RATE_LIMIT ?? 20),
    loginBackoffAfterFailures: Number(env.SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES ?? 5),
    trustedProxies: (env.SCHOLIA_TRUSTED_PROXIES ?? '').split(',').map((entry) => entry.trim()).filter(Boolean),
    bulkBodyBudget: readBulkBodyBudget(env),
    hubUrl: trimSlash(env.SCHOLIA_HUB_URL || 'https://huggingface.co'),
    datasetsServerUrl: trimSlash(env.SCHOLIA_DATASETS_SERVER_URL || 'https://datasets-server.huggingface.co'),
    jobWorkers: env.SCHOLIA_JOB_WORKERS === 'external' ? 'external' : 'inline',
    webhookPrivateTargets: readWebhookPrivateTargets(env, host),
    webhooksDeliver: readBooleanSetting(env, 'SCHOLIA_WEBHOOKS_DELIVER', true),
    huggingfaceOAuth: {
      // Argilla's names (a Space's start script maps OAUTH_CLIENT_ID/SECRET onto them) or ours.
      clientId: env.SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_ID || env.OAUTH2_HUGGINGFACE_CLIENT_ID || undefined,
      clientSecret: env.SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET || env.OAUTH2_HUGGINGFACE_CLIENT_SECRET || undefined,
      openidUrl: trimSlash(env.SCHOLIA_OPENID_URL || env.OPENID_PROVIDER_URL || 'https://huggingface.co'),
      scope: env.SCHOLIA_OAUTH2_HUGGINGFACE_SCOPE || env.OAUTH2_HUGGINGFACE_SCOPE || 'openid profile',
      redirectUri:
        env.SCHOLIA_OAUTH2_HUGGINGFACE_REDIRECT_URI || (env.SPACE_ID && env.SPACE_HOST ? `https://${env.SPACE_HOST}/oauth/huggingface/callback` : undefined),
      // USERNAME is Argilla's Space setting; off a Space it is often the shell's login name, so ignored there.
      ownerUsername: env.SCHOLIA_OAUTH2_OWNER_USERNAME || (env.SPACE_ID ? env.USERNAME : undefined) || undefined,
      // A Space's OAuth template lets new users into `admin` (hub-contract §6), so they see its datasets.
      workspaces: (env.SCHOLIA_OAUTH2_HUGGINGFACE_WORKSPACES ?? (env.SPACE_ID ? 'admin' : '')).split(',').map((w) => w.trim()).filter(Boolean),
    },
  };
}

function readWebhookPrivateTargets(env: NodeJS.ProcessEnv, host: string): PrivateTargets {
  if (env.SCHOLIA_WEBHOOKS_ALLOW_PRIVATE?.trim()) return readBooleanSetting(env, 'SCHOLIA_WEBHOOKS_ALLOW_PRIVATE', false) ? 'all' : 'none';
  // Only this machine can reach a server on loopback: its webhooks go to receivers on the same machine.
  return host === 'localhost' || classifyAddress(host) === 'loopback' ? 'loopback' : 'none';
}

/**
 * A user's budget holds at least one body of the largest size, else such a body could never be
 * read; the server's at least one user's, else the per-user setting would promise what it cannot.
 */
function readBulkBodyBudget(env: NodeJS.ProcessEnv): AppConfig['bulkBodyBudget'] {
  const minMib = BULK_BODY_MAX_BYTES / 1024 / 1024;
  const userBytes = readMebibytesSetting(env, 'SCHOLIA_BULK_BODIES_PER_USER_MIB', minMib, minMib);
  const serverBytes = readMebibytesSetting(env, 'SCHOLIA_BULK_BODIES_MIB', 2 * minMib, minMib);
  if (serverBytes < userBytes) {
    throw new ConfigError(`SCHOLIA_BULK_BODIES_MIB (${serverBytes / 1024 / 1024}) must be at least SCHOLIA_BULK_BODIES_PER_USER_MIB (${userBytes / 1024 / 1024})`);
  }
  return { serverBytes, userBytes };
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');
