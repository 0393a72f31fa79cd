import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/*
 * What the server's log never holds: a credential sent in a query string (`?api_key=`, `?token=`,
 * an OAuth callback's `code` and `state`…) or in a header (Authorization, Cookie,
 * X-Argilla-Api-Key, Set-Cookie), at any level, whether the request was answered or refused.
 * Fastify logs every request's URL, and errors carry URLs and messages: each URL, message and
 * logged object passes through here before its line is written, and a credential's value becomes
 * `[redacted]` (its name stays, so the line still says what was sent).
 */

/** pino's options, as Fastify's `logger` setting takes them. */
type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

const REDACTED = '[redacted]';

/** Query parameters whose value is a credential (compared lower-case, `-` read as `_`). */
const SECRET_PARAMETERS = new Set([
  'api_key', 'apikey', 'key', 'token', 'access_token', 'refresh_token', 'id_token', 'code', 'state', 'password', 'passwd',
  'secret', 'client_secret', 'authorization', 'cookie', 'x_argilla_api_key', 'session', 'signature', 'sig',
]);

/**
 * Keys of logged objects (headers among them) whose value is a credential. Not `code` or `state`:
 * errors and jobs use those words for what an operator needs to read.
 */
const SECRET_KEYS = new Set([
  'authorization', 'proxy_authorization', 'cookie', 'set_cookie', 'x_argilla_api_key', 'api_key', 'apikey', 'access_token',
  'refresh_token', 'id_token', 'token', 'password', 'passwd', 'secret', 'client_secret',
]);

/** Any name holding one of these words is taken for a credential too (`hf_token`, `new_password`). */
const SECRET_WORDS = /token|secret|passw(or)?d|api_?key/;

const normalise = (name: string) => name.toLowerCase().replace(/-/g, '_');
const isSecretParameter = (name: string) => SECRET_PARAMETERS.has(normalise(name)) || SECRET_WORDS.test(normalise(name));
const isSecretKey = (name: string) => SECRET_KEYS.has(normalise(name)) || SECRET_WORDS.test(normalise(name));

/** A query parameter's name as the server reads it (`api%5Fkey` is `api_key`). */
function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** A request target with the values of its credential parameters replaced. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const pairs = url.slice(query + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    return isSecretParameter(decodeName(name)) ? `${name}=${REDACTED}` : pair;
  });
  return `${url.slice(0, query + 1)}${pairs.join('&')}`;
}

/**
 * `name=value` after `?`, `&`, a space, a quote or the start: a query string, or a setting quoted
 * in a message. A value stops at a quote or backslash, so a JSON line stays JSON once it is replaced.
 */
const NAME_VALUE = /(^|[?&;,\s"'])([^=&?;,\s"'<>\\]+)=([^&;,\s"'<>\\]*)/g;
/** Credentials in an Authorization header's form. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi;

/** Free text (a message, an error's text or stack) with every credential it quotes replaced. */
export function redactText(text: string): string {
  return text
    .replace(NAME_VALUE, (whole, before: string, name: string) => (isSecretParameter(decodeName(name)) ? `${before}${name}=${REDACTED}` : whole))
    .replace(AUTH_SCHEME, `$1 ${REDACTED}`);
}

/** Deep enough for anything we log; deeper values are left out rather than written unchecked. */
const MAX_DEPTH = 6;

/**
 * A logged value with credentials replaced: strings are scanned, and plain objects and arrays
 * walked (a credential key's value is replaced whole). Other instances are left to the
 * serializers below (requests, replies, errors), which know their shapes.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, isSecretKey(key) ? REDACTED : redactValue(item, depth + 1)]),
  );
}

interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/**
 * An error as a log line shows it: its type, text, stack, code, status and cause, each redacted.
 * Other properties are left out: libraries hang request options, headers or bodies on their errors.
 */
function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: redactText(String(error)), stack: '' };
  const { code, statusCode, cause } = error as Error & { code?: unknown; statusCode?: unknown };
  return {
    type: error.constructor.name,
    message: redactText(error.message),
    stack: redactText(error.stack ?? ''),
    ...(code === undefined ? {} : { code: redactValue(code) }),
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(cause !== undefined && depth < 3 ? { cause: serializeError(cause, depth + 1) } : {}),
  };
}

/** Fastify's request fields, the URL redacted; headers are not logged at all. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** pino options for the server's logger at `level`. */
export function redactingLoggerOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: { req: serializeRequest, err: serializeError },
    hooks: {
      // Every call's arguments (objects, message, format arguments) before pino formats them.
      logMethod(args, method) {
        method.apply(this, args.map((arg) => redactValue(arg)) as Parameters<typeof method>);
      },
      // And each finished line: pino takes an error's own message as the line's message.
      streamWrite: redactText,
    },
  };
}
