import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  BadRequestError,
  CodedUnprocessableError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RequestValidationError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableError,
  type ValidationIssue,
} from '../../errors.js';
import { UUID_PATTERN } from '@scholia/shared/contract';
import { storageFailure } from './storage-failures.js';

const API_ERROR = 'argilla.api.errors::';

/** Maps domain errors and request-validation failures to the body shapes of contract §5. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send({ detail: 'Not Found' });
  });
}, { name: 'errors' });

function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.validation) {
    const issues = collapseUnionErrors(error.validation as unknown as AjvIssue[]).map((e) => toIssue(e, error.validationContext));
    return reply.code(422).send(validationBody(issues));
  }
  if (error instanceof RequestValidationError) return reply.code(422).send(validationBody(error.issues));
  if (error instanceof NotFoundError) return reply.code(404).send({ detail: error.message });
  if (error instanceof ConflictError) return reply.code(409).send({ detail: error.message });
  if (error instanceof CodedUnprocessableError) return reply.code(422).send({ code: error.code, message: error.message });
  if (error instanceof UnprocessableError) return reply.code(422).send({ detail: error.message });
  if (error instanceof ForbiddenError) {
    return reply.code(403).send({ detail: { code: `${API_ERROR}ForbiddenOperationError`, params: { detail: error.message } } });
  }
  if (error instanceof UnauthorizedError) {
    return reply.code(401).send({ detail: { code: `${API_ERROR}UnauthorizedError`, params: { detail: error.message } } });
  }
  if (error instanceof TooManyRequestsError) {
    return reply.code(429).header('Retry-After', String(error.retryAfterSeconds)).send({ detail: error.message });
  }
  if (error instanceof BadRequestError) {
    return reply.code(400).send({ detail: { code: `${API_ERROR}BadRequestError`, params: { message: error.message } } });
  }
  const parseIssue = bodyParseIssue(error);
  if (parseIssue) return reply.code(422).send(validationBody([parseIssue]));
  if (isUnstorableText(error)) {
    return reply.code(422).send({ detail: 'Text values cannot contain the NUL character (\\u0000)' });
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ detail: bodyTooLarge(request) });
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.code(status).send({ detail: status === 429 ? 'Too many requests' : error.message });
  }
  const failure = storageFailure(error);
  if (failure) {
    request.log.error({ err: error, url: request.routeOptions.url, method: request.method }, 'storage failure');
    return reply.code(failure.status).send({ detail: failure.detail });
  }
  request.log.error({ err: error, url: request.routeOptions.url, method: request.method }, 'unhandled error');
  return reply.code(500).send({
    detail: { code: `${API_ERROR}GenericServerError`, params: { type: 'Error', message: 'Internal server error', args: [] } },
  });
}

function bodyTooLarge(request: FastifyRequest): string {
  const limit = `${Math.floor(request.routeOptions.bodyLimit / 1024 / 1024)} MiB`;
  if (!request.routeOptions.config.bulkBody) return `Request body is too large: at most ${limit} here`;
  return `Request body is too large: a bulk write takes at most ${limit}. Send the records in smaller batches (the SDK's log() takes batch_size).`;
}

/**
 * Router failures Fastify answers before any route runs (`frameworkErrors` option): a path that is
 * not valid percent-encoding (`/records/%zz`, `%ED%A0%80`) or a parameter over maxParamLength.
 * The reference decodes the path and fails the id's validation: contract §0, the 422 validation shape.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const msg = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'Value error, path parameter too long' : 'Value error, invalid URL encoding';
  return reply.code(422).send(validationBody([{ type: 'value_error', loc: ['path'], msg }]));
}

/**
 * Errors of the HTTP parser, before Fastify sees a request (`clientErrorHandler` option): a URL or
 * headers over Node's 16 KiB limit (431), a timeout (408) or a malformed request (400). Same
 * `{"detail": "..."}` body as every other plain HTTP error (contract §5).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const reason = http.STATUS_CODES[status] ?? 'Bad Request';
  const body = JSON.stringify({ detail: reason });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

/**
 * PostgreSQL refuses NUL in text (SQLSTATE 22021 / 22P05). It is bad input, not a server fault:
 * the statement failed, so its transaction wrote nothing.
 */
function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '22021' || code === '22P05';
}

export function validationBody(errors: ValidationIssue[]) {
  return { detail: { code: `${API_ERROR}ValidationError`, params: { errors } } };
}

/** A body that is not JSON, or an empty one, is a request-validation error in the reference (FastAPI). */
function bodyParseIssue(error: FastifyError): ValidationIssue | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { type: 'missing', loc: ['body'], msg: 'Field required' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object' };
    default:
      if (error instanceof SyntaxError) return { type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error' };
      return undefined;
  }
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * A nullable or union schema fails once per branch plus once for `anyOf`; report one issue per
 * location, preferring the branch that is not the `null` alternative.
 */
function collapseUnionErrors(errors: AjvIssue[]): AjvIssue[] {
  const byPath = new Map<string, AjvIssue>();
  for (const e of errors) {
    const key = `${e.instancePath}|${e.keyword === 'required' ? String(e.params.missingProperty) : ''}`;
    const isNoise = e.keyword === 'anyOf' || (e.keyword === 'type' && e.params.type === 'null');
    const current = byPath.get(key);
    if (!current) byPath.set(key, e);
    else if ((current.keyword === 'anyOf' || (current.keyword === 'type' && current.params.type === 'null')) && !isNoise) byPath.set(key, e);
  }
  return [...byPath.values()];
}

function toIssue(raw: unknown, context: string | undefined): ValidationIssue {
  const e = raw as AjvIssue;
  const loc: (string | number)[] = [PART_NAMES[context ?? 'body'] ?? 'body'];
  for (const segment of e.instancePath.split('/').slice(1)) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    loc.push(/^\d+$/.test(key) ? Number(key) : key);
  }
  switch (e.keyword) {
    case 'required':
      return { type: 'missing', loc: [...loc, String(e.params.missingProperty)], msg: 'Field required' };
    case 'type':
      return { type: `${String(e.params.type)}_type`, loc, msg: `Input should be a valid ${String(e.params.type)}` };
    case 'pattern':
      if (e.params.pattern === UUID_PATTERN) return { type: 'uuid_parsing', loc, msg: 'Input should be a valid UUID' };
      return { type: 'string_pattern_mismatch', loc, msg: `String should match pattern '${String(e.params.pattern)}'` };
    case 'minLength':
      return { type: 'string_too_short', loc, msg: `String should have at least ${String(e.params.limit)} characters` };
    case 'maxLength':
      return { type: 'string_too_long', loc, msg: `String should have at most ${String(e.params.limit)} characters` };
    case 'minItems':
      return { type: 'too_short', loc, msg: `List should have at least ${String(e.params.limit)} items` };
    case 'maxItems':
      return { type: 'too_long', loc, msg: `List should have at most ${String(e.params.limit)} items` };
    case 'minimum':
      return { type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${String(e.params.limit)}` };
    case 'exclusiveMinimum':
      return { type: 'greater_than', loc, msg: `Input should be greater than ${String(e.params.limit)}` };
    case 'maximum':
      return { type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${String(e.params.limit)}` };
    case 'exclusiveMaximum':
      return { type: 'less_than', loc, msg: `Input should be less than ${String(e.params.limit)}` };
    case 'enum':
      return { type: 'literal_error', loc, msg: `Input should be ${oneOf(e.params.allowedValues)}` };
    case 'const':
    case 'anyOf':
      return { type: 'literal_error', loc, msg: `Input should be ${e.message ?? 'one of the allowed values'}` };
    default:
      return { type: 'value_error', loc, msg: `Value error, ${e.message ?? 'invalid value'}` };
  }
}

/** Pydantic's wording for a closed set of values: `'a', 'b' or 'c'` (an allowed `null` is not listed). */
function oneOf(values: unknown): string {
  const quoted = (Array.isArray(values) ? values : []).filter((v) => v !== null).map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v)));
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : (quoted[0] ?? 'one of the allowed values');
}
