/**
 * A setting the server cannot run with. Start-up prints its message on one line and exits, so the
 * message names the variable and the values it accepts.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** `true`/`false` (also 1/0, yes/no, on/off, any case); unset or empty: `fallback`. */
export function readBooleanSetting(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (TRUE_WORDS.has(raw)) return true;
  if (FALSE_WORDS.has(raw)) return false;
  throw new ConfigError(`${name} must be true or false, not "${env[name]}"`);
}

/** A TCP port number (0 picks a free one); unset or empty: `fallback`. */
export function readPortSetting(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) throw new ConfigError(`${name} must be a port number from 0 to 65535, not "${env[name]}"`);
  return port;
}

/** A whole number of MiB, at least `min`; unset or empty: `fallback`. Returned in bytes. */
export function readMebibytesSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback * MIB;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw) * MIB)) {
    throw new ConfigError(`${name} must be a whole number of MiB, at least ${min}, not "${env[name]}"`);
  }
  return Number(raw) * MIB;
}

const MIB = 1024 * 1024;

/**
 * Comma-separated exact web origins (`scheme://host[:port]`, no path, no `*`); unset or empty: none.
 * Each is returned in the form browsers send in `Origin` (lower-case host, default port dropped).
 */
export function readOriginListSetting(env: NodeJS.ProcessEnv, name: string): string[] {
  const entries = (env[name] ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  return [...new Set(entries.map((entry) => parseOrigin(name, entry)))];
}

function parseOrigin(name: string, entry: string): string {
  const problem = `${name} takes comma-separated origins such as https://app.example.org or http://localhost:5173, not "${entry}"`;
  // A pattern would let through more sites than the operator named.
  if (entry.includes('*')) throw new ConfigError(problem);
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new ConfigError(problem);
  }
  const bareOrigin = url.pathname === '/' && !entry.endsWith('/') && !url.search && !url.hash && !url.username && !url.password;
  if (!['http:', 'https:'].includes(url.protocol) || !bareOrigin) throw new ConfigError(problem);
  return url.origin;
}
