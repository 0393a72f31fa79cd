import { BadRequestError } from '../errors.js';

/** The cookie that ties a sign-in flow to the browser that started it. */
export const OAUTH_STATE_COOKIE = 'scholia_oauth_state';

/** A provider's `code` and `state` are short; anything longer is not from the provider. */
const MAX_PARAMETER_LENGTH = 2048;

/** What the callback brings: the provider's query, and the state the browser kept in its cookie. */
export interface OAuthCallback {
  code?: string;
  state?: string;
  /** The state cookie's value: it must equal `state`. */
  browserState?: string;
}

/**
 * The query as one string per name. A name given twice (`state=a&state=b`) or a value too long to
 * be the provider's is refused with 400: it is someone's crafted link, not a provider redirect.
 */
export function readSingleValuedQuery(query: unknown): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new BadRequestError(`Query parameter '${name}' must be given once`);
    if (value.length > MAX_PARAMETER_LENGTH) throw new BadRequestError(`Query parameter '${name}' is too long`);
    values[name] = value;
  }
  return values;
}

/** The callback's `code` and `state`, and the state cookie from the `Cookie` header. */
export function readOAuthCallback(query: unknown, cookieHeader: string | undefined): OAuthCallback {
  const { code, state } = readSingleValuedQuery(query);
  return { code, state, browserState: readCookie(cookieHeader, OAUTH_STATE_COOKIE) };
}

/** Options of {@link stateCookie}. */
export interface StateCookieOptions {
  /** Only the provider's own routes get the cookie back. */
  path: string;
  /** Sent over HTTPS only (the request came over HTTPS). */
  secure: boolean;
  /** Lifetime in seconds; 0 removes the cookie. */
  maxAgeSeconds: number;
}

/**
 * `Set-Cookie` for the state: HttpOnly (no script reads it), SameSite=Lax (a cross-site request
 * made by another page does not carry it, while the sign-in page's own call does).
 */
export function stateCookie(state: string, options: StateCookieOptions): string {
  const attributes = [`${OAUTH_STATE_COOKIE}=${state}`, `Path=${options.path}`, `Max-Age=${options.maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) attributes.push('Secure');
  return attributes.join('; ');
}

/** The first value of the named cookie, undefined when absent. */
function readCookie(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}
