import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * A setting the server cannot run with. Start-up prints its message on one line and exits, so the
 * message names the variable, what is wrong with its value and an example of a good one.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** How one environment variable is read: its value when set (not blank), else a fallback. */
export interface Setting<T> {
  /** Other names read, in order, when this one is unset: Argilla's names, a Space's. */
  readonly aliases: readonly string[];
  read(env: Env, name: string): T;
}

/**
 * A setting `parse` reads when it is set and not blank; otherwise `fallback`. `parse` gets the
 * name actually set (the setting's or an alias), so its refusal names the variable the operator wrote.
 */
export function setting<T, F = T>(parse: (raw: string, name: string) => T, fallback: F, aliases: readonly string[] = []): Setting<T | F> {
  return {
    aliases,
    read(env, name) {
      for (const variable of [name, ...aliases]) {
        const raw = env[variable];
        if (raw !== undefined && raw.trim() !== '') return parse(raw, variable);
      }
      return fallback;
    },
  };
}

/** `NAME must be <what>, not "<value>" (e.g. <example>)`; `shown` replaces a value that must not be printed. */
export function refusal(name: string, what: string, raw: string, example: string, shown = raw): ConfigError {
  return new ConfigError(`${name} must be ${what}, not "${shown}" (e.g. ${example})`);
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** `true`/`false` (also 1/0, yes/no, on/off, any case). */
export function parseBoolean(raw: string, name: string): boolean {
  const word = raw.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw refusal(name, 'true or false', raw, `${name}=true`);
}

/** A whole number from `min` to `max` (digits only: `1d`, `1e3` and `20.5` are refused). */
export function integer(min: number, max: number, example: number): (raw: string, name: string) => number {
  return (raw, name) => {
    const text = raw.trim();
    const value = Number(text);
    if (!/^-?\d+$/.test(text) || value < min || value > max) throw refusal(name, `a whole number from ${min} to ${max}`, raw, `${name}=${example}`);
    return value;
  };
}

/** A TCP port number (0 picks a free one). */
export function parsePort(raw: string, name: string): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || Number(text) > 65535) throw refusal(name, 'a port number from 0 to 65535', raw, `${name}=6900`);
  return Number(text);
}

/** One of `choices`, as written (case-insensitive). */
export function choice<T extends string>(choices: readonly T[]): (raw: string, name: string) => T {
  return (raw, name) => {
    const word = raw.trim().toLowerCase() as T;
    if (!choices.includes(word)) throw refusal(name, `one of ${choices.join(', ')}`, raw, `${name}=${choices[0]}`);
    return word;
  };
}

/** Any text, kept as written (secrets, names). */
export const text = (raw: string): string => raw;

/** An `http://` or `https://` URL, returned without trailing slashes. */
export function parseHttpUrl(raw: string, name: string): string {
  const text = raw.trim();
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password) {
    throw refusal(name, 'an http:// or https:// URL', raw, `${name}=https://huggingface.co`, withoutPassword(text));
  }
  return text.replace(/\/+$/, '');
}

/** Comma-separated entries, trimmed, empty ones dropped. */
export function commaList(raw: string): string[] {
  return raw.split(',').map((entry) => entry.trim()).filter(Boolean);
}

/**
 * Comma-separated exact web origins (`scheme://host[:port]`, no path, no `*`). Each is returned in
 * the form browsers send in `Origin` (lower-case host, default port dropped).
 */
export function parseOriginList(raw: string, name: string): string[] {
  return [...new Set(commaList(raw).map((entry) => parseOrigin(name, entry)))];
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

/** Comma-separated IP addresses or CIDR ranges (what the proxy-address check accepts). */
export function parseAddressList(raw: string, name: string): string[] {
  return commaList(raw).map((entry) => {
    const [address, prefix, ...rest] = entry.split('/');
    const version = net.isIP(address);
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 6 ? 128 : 32));
    if (!version || !prefixOk || rest.length > 0) throw refusal(name, 'comma-separated IP addresses or CIDR ranges', entry, `${name}=127.0.0.1,10.0.0.0/8`);
    return entry;
  });
}

/** An IP address or a host name to listen on. */
export function parseHost(raw: string, name: string): string {
  const host = raw.trim();
  const hostName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
  if (!net.isIP(host) && !hostName.test(host)) throw refusal(name, 'an IP address or host name to listen on', raw, `${name}=127.0.0.1`);
  return host;
}

/** A folder path, resolved against the working folder. */
export const folderPath = (raw: string): string => path.resolve(raw.trim());

/** A folder that exists and holds `file` (a web build's index.html). */
export function folderWith(file: string, hint: string): (raw: string, name: string) => string {
  return (raw, name) => {
    const folder = path.resolve(raw.trim());
    const isFolder = fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory() ?? false;
    if (!isFolder) throw new ConfigError(`${name} must be an existing folder, not "${raw}": ${hint}`);
    if (!fs.existsSync(path.join(folder, file))) throw new ConfigError(`${name} must be a folder holding ${file}, not "${raw}": ${hint}`);
    return folder;
  };
}

/**
 * `sqlite:<file>`, `sqlite::memory:` or `postgres://` / `postgresql://` with a host. Anything
 * else is refused, rather than taken as the name of a new SQLite file.
 */
export function parseDatabaseUrl(raw: string, name: string): string {
  const text = raw.trim();
  const example = `${name}=postgres://scholia:password@localhost:5432/scholia or sqlite:/var/lib/scholia/scholia.db`;
  if (/^sqlite:./.test(text)) return text;
  if (/^postgres(ql)?:\/\//.test(text)) {
    try {
      if (new URL(text).hostname) return text;
    } catch {
      // refused below
    }
  }
  throw refusal(name, 'sqlite:<file> or postgres://user:password@host:port/database', raw, example, withoutPassword(text));
}

/** A URL's password is never printed: `scheme://user:***@host`. */
function withoutPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}
