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
