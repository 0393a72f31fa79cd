import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config-values.js';
import { readConfig, SETTINGS, type AppConfig } from './config.js';
import { BULK_BODY_MAX_BYTES } from './lib/work-limits.js';

const webBuild = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-config-web-'));
fs.writeFileSync(path.join(webBuild, 'index.html'), '<!doctype html>');
const emptyFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'scholia-config-empty-'));
afterAll(() => {
  for (const folder of [webBuild, emptyFolder]) fs.rmSync(folder, { recursive: true, force: true });
});

interface Case {
  /** Values the server takes, with what the config then holds. */
  good: [Record<string, string>, (config: AppConfig) => unknown, unknown][];
  /** Values that stop the start, with what the one-line message says. */
  bad: [string, RegExp][];
}

const SPACE = { SPACE_ID: 'alice/annotate' };
const MIB = 1024 * 1024;
const LARGEST_BODY_MIB = BULK_BODY_MAX_BYTES / MIB;
const remotesFile = path.join(webBuild, 'remotes.json');
fs.writeFileSync(remotesFile, JSON.stringify({ mfe_settings: '/remotes/mfe-settings/mf-manifest.json' }));

/**
 * One entry per variable documented in docs/configuration.md (a test below checks the lists
 * agree), so no setting goes unread or unchecked. A bad value's message names the variable, what
 * is wrong and an example.
 */
const CASES: Record<string, Case> = {
  SCHOLIA_PORT: { good: [[{ SCHOLIA_PORT: '0' }, (c) => c.port, 0], [{}, (c) => c.port, 6900]], bad: [['eighty', /must be a port number from 0 to 65535, not "eighty" \(e\.g\. SCHOLIA_PORT=6900\)/], ['70000', /not "70000"/]] },
  SCHOLIA_HOST: { good: [[{ SCHOLIA_HOST: '127.0.0.1' }, (c) => c.host, '127.0.0.1'], [{ SCHOLIA_HOST: 'localhost' }, (c) => c.host, 'localhost']], bad: [['http://0.0.0.0:80', /must be an IP address or host name to listen on/], ['local host', /not "local host"/]] },
  SCHOLIA_DATA_DIR: { good: [[{ SCHOLIA_DATA_DIR: 'somewhere' }, (c) => c.dataDir, path.resolve('somewhere')]], bad: [] },
  SCHOLIA_WEB_DIR: {
    good: [[{ SCHOLIA_WEB_DIR: webBuild }, (c) => c.webDir, webBuild], [{}, (c) => c.webDir, undefined]],
    bad: [['/no/such/web/build', /must be an existing folder, not "\/no\/such\/web\/build": build the web app with `node scripts\/build-web\.mjs`/], [emptyFolder, /must be a folder holding index\.html/]],
  },
  SCHOLIA_SERVE_SOURCE_MAPS: { good: [[{ SCHOLIA_SERVE_SOURCE_MAPS: 'TRUE' }, (c) => c.serveSourceMaps, true], [{}, (c) => c.serveSourceMaps, false]], bad: [['maybe', /must be true or false, not "maybe" \(e\.g\. SCHOLIA_SERVE_SOURCE_MAPS=true\)/]] },
  SCHOLIA_LOG_LEVEL: { good: [[{ SCHOLIA_LOG_LEVEL: 'Debug' }, (c) => c.logLevel, 'debug']], bad: [['verbose', /must be one of info, fatal, error, warn, debug, trace, silent, not "verbose"/]] },
  SCHOLIA_METRICS_TOKEN: {
    good: [[{ SCHOLIA_METRICS_TOKEN: 'a'.repeat(16) }, (c) => c.metricsToken, 'a'.repeat(16)], [{}, (c) => c.metricsToken, undefined]],
    bad: [['too-short', /^SCHOLIA_METRICS_TOKEN must be at least 16 printable characters without spaces, not 9 characters \(e\.g\. /], ['with a space in it!', /not 19 characters/]],
  },
  SCHOLIA_DATABASE_URL: {
    good: [
      [{ SCHOLIA_DATABASE_URL: 'postgres://u:p@db:5432/scholia' }, (c) => c.databaseUrl, 'postgres://u:p@db:5432/scholia'],
      [{ SCHOLIA_DATABASE_URL: 'postgresql://db/scholia' }, (c) => c.databaseUrl, 'postgresql://db/scholia'],
      [{ SCHOLIA_DATABASE_URL: 'sqlite:/var/lib/scholia/s.db' }, (c) => c.databaseUrl, 'sqlite:/var/lib/scholia/s.db'],
      [{ SCHOLIA_DATA_DIR: '/srv/d' }, (c) => c.databaseUrl, 'sqlite:/srv/d/scholia.db'],
    ],
    bad: [
      ['garbage', /must be sqlite:<file> or postgres:\/\/user:password@host:port\/database, not "garbage" \(e\.g\. SCHOLIA_DATABASE_URL=postgres:\/\//],
      ['mysql://app:hunter2@db/scholia', /not "mysql:\/\/app:\*\*\*@db\/scholia"/],
      ['postgres://', /not "postgres:\/\/"/],
      ['sqlite:', /not "sqlite:"/],
    ],
  },
  SCHOLIA_DATABASE_POOL_SIZE: { good: [[{ SCHOLIA_DATABASE_POOL_SIZE: '4' }, (c) => c.databasePoolSize, 4], [{}, (c) => c.databasePoolSize, 10]], bad: [['abc', /must be a whole number from 1 to 1000, not "abc" \(e\.g\. SCHOLIA_DATABASE_POOL_SIZE=10\)/], ['0', /not "0"/], ['2.5', /not "2\.5"/]] },
  SCHOLIA_PGVECTOR: {
    good: [[{ SCHOLIA_PGVECTOR: 'off' }, (c) => c.pgvector, false], [{ SCHOLIA_PGVECTOR: 'false' }, (c) => c.pgvector, false], [{ SCHOLIA_PGVECTOR: '0' }, (c) => c.pgvector, false], [{ SCHOLIA_PGVECTOR: 'no' }, (c) => c.pgvector, false], [{}, (c) => c.pgvector, true]],
    bad: [['disabled', /SCHOLIA_PGVECTOR must be true or false, not "disabled"/]],
  },
  SCHOLIA_SQLITE_CACHE_MIB: { good: [[{ SCHOLIA_SQLITE_CACHE_MIB: '64' }, (c) => c.sqliteCacheMiB, 64], [{}, (c) => c.sqliteCacheMiB, 16]], bad: [['16MB', /must be a whole number from 1 to 65536, not "16MB"/], ['0', /not "0"/]] },
  SCHOLIA_OWNER_USERNAME: { good: [[{ SCHOLIA_OWNER_USERNAME: 'ada' }, (c) => c.owner.username, 'ada']], bad: [['ada lovelace', /must be a username without spaces that the app accepts, not "ada lovelace" \(e\.g\. SCHOLIA_OWNER_USERNAME=owner\)/], ['ada\n', /not "ada/]] },
  SCHOLIA_OWNER_PASSWORD: { good: [[{ SCHOLIA_OWNER_PASSWORD: 'long-enough' }, (c) => c.owner.password, 'long-enough']], bad: [['short', /^SCHOLIA_OWNER_PASSWORD must be 8 to 100 characters long, not 5 \(e\.g\. /], ['x'.repeat(101), /not 101/]] },
  SCHOLIA_OWNER_API_KEY: { good: [[{ SCHOLIA_OWNER_API_KEY: 'key-1' }, (c) => c.owner.apiKey, 'key-1'], [{}, (c) => c.owner.apiKey, undefined]], bad: [] },
  SCHOLIA_JWT_SECRET: { good: [[{ SCHOLIA_JWT_SECRET: 's3cret' }, (c) => c.jwtSecret, 's3cret']], bad: [] },
  SCHOLIA_JWT_LIFETIME_SECONDS: {
    good: [[{ SCHOLIA_JWT_LIFETIME_SECONDS: '3600' }, (c) => c.jwtLifetimeSeconds, 3600], [{}, (c) => c.jwtLifetimeSeconds, 86400]],
    bad: [['1d', /must be a whole number from 60 to 31536000, not "1d" \(e\.g\. SCHOLIA_JWT_LIFETIME_SECONDS=86400\)/], ['-5', /not "-5"/], ['1e5', /not "1e5"/]],
  },
  SCHOLIA_LOGIN_RATE_LIMIT: { good: [[{ SCHOLIA_LOGIN_RATE_LIMIT: '0' }, (c) => c.loginRateLimitPerMinute, 0], [{}, (c) => c.loginRateLimitPerMinute, 20]], bad: [['twenty', /must be a whole number from 0 to 1000000, not "twenty" \(e\.g\. SCHOLIA_LOGIN_RATE_LIMIT=20\)/]] },
  SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES: { good: [[{ SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES: '3' }, (c) => c.loginBackoffAfterFailures, 3]], bad: [['five', /SCHOLIA_LOGIN_BACKOFF_AFTER_FAILURES must be a whole number from 0 to 1000/]] },
  SCHOLIA_TRUSTED_PROXIES: {
    good: [[{ SCHOLIA_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,::1' }, (c) => c.trustedProxies, ['127.0.0.1', '10.0.0.0/8', '::1']]],
    bad: [['10.0.0.0/33', /must be comma-separated IP addresses or CIDR ranges, not "10\.0\.0\.0\/33" \(e\.g\. SCHOLIA_TRUSTED_PROXIES=127\.0\.0\.1,10\.0\.0\.0\/8\)/], ['proxy.internal', /not "proxy\.internal"/]],
  },
  SCHOLIA_CORS_ORIGINS: { good: [[{ SCHOLIA_CORS_ORIGINS: 'https://a.example' }, (c) => c.corsOrigins, ['https://a.example']]], bad: [['*', /SCHOLIA_CORS_ORIGINS takes comma-separated origins/]] },
  SCHOLIA_FRAME_ANCESTORS: { good: [[{ SCHOLIA_FRAME_ANCESTORS: "'self'  https://x.example" }, (c) => c.frameAncestors, ["'self'", 'https://x.example']], [{}, (c) => c.frameAncestors, ["'self'"]]], bad: [] },
  SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_ID: {
    good: [[{ SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_ID: 'id', SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET: 'secret' }, (c) => c.huggingfaceOAuth.clientId, 'id']],
    bad: [['id-without-secret', /^SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET must be set when SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_ID is/]],
  },
  OAUTH2_HUGGINGFACE_CLIENT_ID: { good: [[{ OAUTH2_HUGGINGFACE_CLIENT_ID: 'id', OAUTH2_HUGGINGFACE_CLIENT_SECRET: 'secret' }, (c) => c.huggingfaceOAuth.clientId, 'id']], bad: [['id-without-secret', /CLIENT_SECRET must be set/]] },
  SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET: { good: [], bad: [['secret-without-id', /^SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_ID must be set when SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_SECRET is/]] },
  OAUTH2_HUGGINGFACE_CLIENT_SECRET: { good: [[{ SCHOLIA_OAUTH2_HUGGINGFACE_CLIENT_ID: 'id', OAUTH2_HUGGINGFACE_CLIENT_SECRET: 's' }, (c) => c.huggingfaceOAuth.clientSecret, 's']], bad: [['secret-without-id', /CLIENT_ID must be set/]] },
  SCHOLIA_OPENID_URL: { good: [[{ SCHOLIA_OPENID_URL: 'https://id.example/' }, (c) => c.huggingfaceOAuth.openidUrl, 'https://id.example']], bad: [['id.example', /SCHOLIA_OPENID_URL must be an http:\/\/ or https:\/\/ URL, not "id\.example"/]] },
  OPENID_PROVIDER_URL: { good: [[{ OPENID_PROVIDER_URL: 'http://127.0.0.1:9' }, (c) => c.huggingfaceOAuth.openidUrl, 'http://127.0.0.1:9']], bad: [['ftp://x', /^OPENID_PROVIDER_URL must be an http:\/\/ or https:\/\/ URL/]] },
  SCHOLIA_OAUTH2_HUGGINGFACE_SCOPE: { good: [[{ SCHOLIA_OAUTH2_HUGGINGFACE_SCOPE: 'openid' }, (c) => c.huggingfaceOAuth.scope, 'openid'], [{}, (c) => c.huggingfaceOAuth.scope, 'openid profile']], bad: [] },
  OAUTH2_HUGGINGFACE_SCOPE: { good: [[{ OAUTH2_HUGGINGFACE_SCOPE: 'openid email' }, (c) => c.huggingfaceOAuth.scope, 'openid email']], bad: [] },
  SCHOLIA_OAUTH2_HUGGINGFACE_REDIRECT_URI: {
    good: [[{ SCHOLIA_OAUTH2_HUGGINGFACE_REDIRECT_URI: 'https://l.example/oauth/huggingface/callback' }, (c) => c.huggingfaceOAuth.redirectUri, 'https://l.example/oauth/huggingface/callback']],
    bad: [['/oauth/huggingface/callback', /SCHOLIA_OAUTH2_HUGGINGFACE_REDIRECT_URI must be an http:\/\/ or https:\/\/ URL/]],
  },
  SCHOLIA_OAUTH2_OWNER_USERNAME: { good: [[{ SCHOLIA_OAUTH2_OWNER_USERNAME: 'hf-boss' }, (c) => c.huggingfaceOAuth.ownerUsername, 'hf-boss']], bad: [] },
  USERNAME: { good: [[{ ...SPACE, USERNAME: 'alice' }, (c) => c.huggingfaceOAuth.ownerUsername, 'alice'], [{ USERNAME: 'root' }, (c) => c.huggingfaceOAuth.ownerUsername, undefined]], bad: [] },
  SCHOLIA_OAUTH2_HUGGINGFACE_WORKSPACES: { good: [[{ SCHOLIA_OAUTH2_HUGGINGFACE_WORKSPACES: 'a, b,' }, (c) => c.huggingfaceOAuth.workspaces, ['a', 'b']], [SPACE, (c) => c.huggingfaceOAuth.workspaces, ['admin']]], bad: [] },
  SCHOLIA_HUB_URL: { good: [[{ SCHOLIA_HUB_URL: 'http://127.0.0.1:9/' }, (c) => c.hubUrl, 'http://127.0.0.1:9']], bad: [['huggingface.co', /SCHOLIA_HUB_URL must be an http:\/\/ or https:\/\/ URL, not "huggingface\.co" \(e\.g\. /]] },
  SCHOLIA_DATASETS_SERVER_URL: { good: [[{}, (c) => c.datasetsServerUrl, 'https://datasets-server.huggingface.co']], bad: [['not a url', /SCHOLIA_DATASETS_SERVER_URL must be an http:\/\/ or https:\/\/ URL/]] },
  SPACE_ID: { good: [[SPACE, (c) => c.space?.id, 'alice/annotate'], [{}, (c) => c.space, undefined]], bad: [] },
  SPACE_TITLE: { good: [[{ ...SPACE, SPACE_TITLE: 'Labels' }, (c) => c.space?.title, 'Labels']], bad: [] },
  SPACE_HOST: { good: [[{ ...SPACE, SPACE_HOST: 'a.hf.space' }, (c) => c.huggingfaceOAuth.redirectUri, 'https://a.hf.space/oauth/huggingface/callback']], bad: [] },
  SPACE_SUBDOMAIN: { good: [[{ ...SPACE, SPACE_SUBDOMAIN: 'alice-annotate' }, (c) => c.space?.subdomain, 'alice-annotate']], bad: [] },
  SPACE_AUTHOR_NAME: { good: [[{ ...SPACE, SPACE_AUTHOR_NAME: 'alice' }, (c) => c.space?.authorName, 'alice']], bad: [] },
  PERSISTANT_STORAGE_ENABLED: { good: [[{ ...SPACE, PERSISTANT_STORAGE_ENABLED: 'true' }, (c) => c.space?.persistentStorage, true], [SPACE, (c) => c.space?.persistentStorage, false]], bad: [['sometimes', /PERSISTANT_STORAGE_ENABLED must be true or false, not "sometimes"/]] },
  PERSISTENT_STORAGE_ENABLED: { good: [[{ ...SPACE, PERSISTENT_STORAGE_ENABLED: 'true' }, (c) => c.space?.persistentStorage, true]], bad: [['yes please', /^PERSISTENT_STORAGE_ENABLED must be true or false/]] },
  SCHOLIA_SHOW_SPACE_STORAGE_WARNING: { good: [[{ ...SPACE, SCHOLIA_SHOW_SPACE_STORAGE_WARNING: 'false' }, (c) => c.space?.showStorageWarning, false], [SPACE, (c) => c.space?.showStorageWarning, true]], bad: [['hide', /SCHOLIA_SHOW_SPACE_STORAGE_WARNING must be true or false, not "hide"/]] },
  ARGILLA_SHOW_HUGGINGFACE_SPACE_PERSISTENT_STORAGE_WARNING: { good: [[{ ...SPACE, ARGILLA_SHOW_HUGGINGFACE_SPACE_PERSISTENT_STORAGE_WARNING: 'False' }, (c) => c.space?.showStorageWarning, false]], bad: [['nope', /^ARGILLA_SHOW_HUGGINGFACE_SPACE_PERSISTENT_STORAGE_WARNING must be true or false/]] },
  SCHOLIA_SHARE_YOUR_PROGRESS: { good: [[{ SCHOLIA_SHARE_YOUR_PROGRESS: 'yes' }, (c) => c.shareYourProgress, true], [{}, (c) => c.shareYourProgress, false]], bad: [['True!', /SCHOLIA_SHARE_YOUR_PROGRESS must be true or false, not "True!"/]] },
  SCHOLIA_WEBHOOKS_ALLOW_PRIVATE: {
    good: [
      [{ SCHOLIA_WEBHOOKS_ALLOW_PRIVATE: 'on' }, (c) => c.webhookPrivateTargets, 'all'],
      [{ SCHOLIA_WEBHOOKS_ALLOW_PRIVATE: 'false', SCHOLIA_HOST: '127.0.0.1' }, (c) => c.webhookPrivateTargets, 'none'],
      [{ SCHOLIA_HOST: '127.0.0.1' }, (c) => c.webhookPrivateTargets, 'loopback'],
      [{}, (c) => c.webhookPrivateTargets, 'none'],
    ],
    bad: [['private', /SCHOLIA_WEBHOOKS_ALLOW_PRIVATE must be true or false/]],
  },
  SCHOLIA_BULK_BODIES_MIB: {
    good: [[{ SCHOLIA_BULK_BODIES_MIB: '256' }, (c) => c.bulkBodyBudget.serverBytes, 256 * MIB], [{}, (c) => c.bulkBodyBudget.serverBytes, 2 * BULK_BODY_MAX_BYTES]],
    bad: [['lots', new RegExp(`must be a whole number from ${LARGEST_BODY_MIB} to`)], ['1.5', /not "1\.5"/], [String(LARGEST_BODY_MIB - 1), new RegExp(`not "${LARGEST_BODY_MIB - 1}"`)]],
  },
  SCHOLIA_BULK_BODIES_PER_USER_MIB: {
    good: [[{ SCHOLIA_BULK_BODIES_MIB: '256', SCHOLIA_BULK_BODIES_PER_USER_MIB: '64' }, (c) => c.bulkBodyBudget.userBytes, 64 * MIB], [{}, (c) => c.bulkBodyBudget.userBytes, BULK_BODY_MAX_BYTES]],
    // A user's share below one largest body could never admit it.
    bad: [[String(LARGEST_BODY_MIB - 1), new RegExp(`must be a whole number from ${LARGEST_BODY_MIB} to`)]],
  },
  SCHOLIA_REMOTES: {
    good: [[{ SCHOLIA_REMOTES: '{"mfe_settings": "https://cdn.example.org/s/1.0.0/mf-manifest.json"}' }, (c) => c.remotes, { mfe_settings: 'https://cdn.example.org/s/1.0.0/mf-manifest.json' }], [{}, (c) => c.remotes, {}]],
    bad: [['mfe_settings=https://cdn.example.org/x.js', /SCHOLIA_REMOTES must be a JSON object of remote name → entry URL/]],
  },
  SCHOLIA_REMOTES_FILE: { good: [[{ SCHOLIA_REMOTES_FILE: remotesFile }, (c) => c.remotesFile, remotesFile], [{}, (c) => c.remotesFile, undefined]], bad: [] },
  SCHOLIA_REMOTE_OVERRIDES: { good: [[{ SCHOLIA_REMOTE_OVERRIDES: 'true' }, (c) => c.remoteOverrides, true], [{}, (c) => c.remoteOverrides, false]], bad: [['dev', /SCHOLIA_REMOTE_OVERRIDES must be true or false/]] },
  SCHOLIA_WEBHOOKS_DELIVER: { good: [[{ SCHOLIA_WEBHOOKS_DELIVER: 'false' }, (c) => c.webhooksDeliver, false], [{}, (c) => c.webhooksDeliver, true]], bad: [['never', /SCHOLIA_WEBHOOKS_DELIVER must be true or false/]] },
  SCHOLIA_JOB_WORKERS: { good: [[{ SCHOLIA_JOB_WORKERS: 'external' }, (c) => c.jobWorkers, 'external'], [{}, (c) => c.jobWorkers, 'inline']], bad: [['extern', /SCHOLIA_JOB_WORKERS must be one of inline, external, not "extern" \(e\.g\. SCHOLIA_JOB_WORKERS=inline\)/]] },
};

/**
 * The variables docs/configuration.md documents for the server: every backticked name in the first
 * cell of a table row, up to the sections about `npm start`'s allocator and development tools.
 */
function documentedVariables(): string[] {
  const page = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/configuration.md'), 'utf8');
  const serverPart = page.slice(0, page.indexOf('## Memory settings of `npm start`'));
  const names = serverPart.split('\n').filter((line) => line.startsWith('| `')).flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  return [...new Set(names)].sort();
}

const schemaVariables = Object.entries(SETTINGS).flatMap(([name, entry]) => [name, ...entry.aliases]).sort();

describe('the settings schema', () => {
  it('reads exactly the variables docs/configuration.md documents', () => {
    expect(documentedVariables()).toEqual(schemaVariables);
  });

  it('has a test case for every variable', () => {
    expect(Object.keys(CASES).sort()).toEqual(schemaVariables);
  });

  describe.each(Object.entries(CASES))('%s', (name, { good, bad }) => {
    it.each(good.map((entry, index) => [index, ...entry] as const))('takes good value %s', (_index, env, pick, expected) => {
      expect(pick(readConfig(env))).toEqual(expected);
    });
    it.skipIf(bad.length === 0).each(bad)('refuses "%s" with a line naming the variable', (value, message) => {
      const env = { [name]: value };
      expect(() => readConfig(env)).toThrowError(message);
      expect(() => readConfig(env)).toThrowError(new RegExp(`^${name} |${name} is`));
    });
  });

  it('a blank value is the default', () => {
    expect(readConfig({ SCHOLIA_PORT: ' ', SCHOLIA_JWT_LIFETIME_SECONDS: '' })).toMatchObject({ port: 6900, jwtLifetimeSeconds: 86400 });
  });
});

describe('settings checked together', () => {
  it('refuse a server-wide bulk body budget below one user\'s', () => {
    const env = { SCHOLIA_BULK_BODIES_MIB: String(LARGEST_BODY_MIB), SCHOLIA_BULK_BODIES_PER_USER_MIB: String(2 * LARGEST_BODY_MIB) };
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(/^SCHOLIA_BULK_BODIES_MIB \(16\) must be at least SCHOLIA_BULK_BODIES_PER_USER_MIB \(32\)/);
  });
});
