import fs from 'node:fs';
import { ConfigError } from '../config-values.js';

/** Remote name → URL of its `mf-manifest.json` or `remoteEntry.js`, as an operator registers it. */
export type RemoteRegistrations = Record<string, string>;

/** A Module Federation container name: the global the remote's entry defines. */
const REMOTE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Reads the registrations in `text` (a JSON object) or throws a ConfigError naming `source`
 * (the variable, or the variable and the file). Each URL is either absolute (http or https, any
 * origin, no credentials) or a path on Scholia's origin, and names a `.js` entry or a `.json`
 * manifest: anything else would be loaded by the browser as script.
 */
export function parseRemoteRegistrations(text: string, source: string): RemoteRegistrations {
  const example = `{"mfe_settings": "https://cdn.example.org/mfe-settings/0.1.0-1a2b3c/mf-manifest.json"}`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`${source} must be a JSON object of remote name → entry URL, such as ${example}; it is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`${source} must be a JSON object of remote name → entry URL, such as ${example}`);
  }
  const registrations: RemoteRegistrations = {};
  for (const [name, url] of Object.entries(value)) {
    if (!REMOTE_NAME.test(name)) throw new ConfigError(`${source}: "${name}" is not a remote name (letters, digits and _, such as mfe_settings)`);
    if (typeof url !== 'string' || !isEntryUrl(url)) {
      throw new ConfigError(`${source}: ${name} must be the http(s) URL or /path of its mf-manifest.json or remoteEntry.js, not ${JSON.stringify(url)}`);
    }
    registrations[name] = url;
  }
  return registrations;
}

function isEntryUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://scholia.invalid');
  } catch {
    return false;
  }
  const sameOrigin = url.startsWith('/') && !url.startsWith('//');
  const absolute = /^https?:\/\//i.test(url);
  if (!sameOrigin && !absolute) return false;
  if (parsed.username || parsed.password || parsed.hash) return false;
  return /\.(js|json)$/.test(parsed.pathname);
}

/** SCHOLIA_REMOTES_FILE: the file must exist and hold valid registrations at start. */
export function parseRemotesFile(raw: string, name: string): string {
  const file = raw.trim();
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  parseRemoteRegistrations(text, `${name} (${file})`);
  return file;
}

/** Where a remote's dev server runs: the only places an override may point at. */
export const REMOTE_OVERRIDE_SOURCES = ['http://localhost:*', 'http://127.0.0.1:*', 'ws://localhost:*', 'ws://127.0.0.1:*'];
