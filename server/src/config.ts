import path from 'node:path';

/** Runtime settings, read once from the environment (documented in the README's table). */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `sqlite:<file>` or `postgres://...` */
  databaseUrl: string;
  owner: { username?: string; password?: string; apiKey?: string };
  jwtSecret?: string;
  jwtLifetimeSeconds: number;
  /** Folder of built frontends to serve (shell at /, remotes under /remotes/<name>/). */
  webDir?: string;
  logLevel: string;
  frameAncestors: string[];
  loginRateLimitPerMinute: number;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(env.SCHOLIA_DATA_DIR ?? './data');
  return {
    port: Number(env.SCHOLIA_PORT ?? 6900),
    host: env.SCHOLIA_HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.SCHOLIA_DATABASE_URL ?? `sqlite:${path.join(dataDir, 'scholia.db')}`,
    owner: {
      username: env.SCHOLIA_OWNER_USERNAME || undefined,
      password: env.SCHOLIA_OWNER_PASSWORD || undefined,
      apiKey: env.SCHOLIA_OWNER_API_KEY || undefined,
    },
    jwtSecret: env.SCHOLIA_JWT_SECRET || undefined,
    jwtLifetimeSeconds: Number(env.SCHOLIA_JWT_LIFETIME_SECONDS ?? 86400),
    webDir: env.SCHOLIA_WEB_DIR || undefined,
    logLevel: env.SCHOLIA_LOG_LEVEL ?? 'info',
    frameAncestors: (env.SCHOLIA_FRAME_ANCESTORS ?? "'self'").split(/\s+/).filter(Boolean),
    loginRateLimitPerMinute: Number(env.SCHOLIA_LOGIN_RATE_LIMIT ?? 20),
  };
}
