import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bus } from '../bus/event-bus.js';
import { changeLanguage, initI18n } from '../i18n/init-i18n.js';
import { ApiError } from './api-error.js';
import { createToken, login } from './auth.js';
import { handleHttpError } from './error-handler.js';
import { apiRequest } from './http-client.js';
import { queryClient } from './connection.js';
import { readToken, writeToken } from './session.js';
import { getCurrentUser } from './users.js';

function stubFetch(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
    new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function recordToasts() {
  const events: string[] = [];
  const onToast = ({ message }: { message: string }) => events.push(message);
  const onClear = () => events.push('<cleared>');
  bus.on('toast:requested', onToast);
  bus.on('toasts:cleared', onClear);
  return { events, stop: () => { bus.off('toast:requested', onToast); bus.off('toasts:cleared', onClear); } };
}

describe('global HTTP error handler', () => {
  let toasts: ReturnType<typeof recordToasts>;
  beforeEach(async () => {
    initI18n('en');
    await changeLanguage('en');
    localStorage.clear();
    queryClient.clear();
    toasts = recordToasts();
  });
  afterEach(() => toasts.stop());

  it('clears toasts, then shows the translated HTTP message', () => {
    handleHttpError(new ApiError({ status: 404, body: { detail: { code: 'x', params: {} } } }));
    expect(toasts.events).toEqual(['<cleared>', 'Could not find the requested resource']);
  });

  it('shows the translated business message for a body code', () => {
    handleHttpError(new ApiError({ status: 422, body: { code: 'missing_vector', message: 'raw' } }));
    expect(toasts.events).toEqual(['<cleared>', 'Vector not found for the selected record']);
  });

  it('otherwise shows a string detail', () => {
    handleHttpError(new ApiError({ status: 409, body: { detail: 'Workspace name `a` is not unique' } }));
    expect(toasts.events).toEqual(['<cleared>', 'Workspace name `a` is not unique']);
  });

  it('shows both HTTP message and detail when both exist', () => {
    handleHttpError(new ApiError({ status: 500, body: { detail: 'db down' } }));
    expect(toasts.events).toEqual(['<cleared>', 'An error occurred, please try again later', 'db down']);
  });

  it('names the refused value of a request validation error, which has no code or string detail', () => {
    const body = { detail: { code: 'argilla.api.errors::ValidationError', params: { errors: [{ type: 'value_error', loc: ['body', 'items', 0, 'fields', 'text'], msg: 'Value error, text cannot contain the NUL character (\\u0000)' }] } } };
    handleHttpError(new ApiError({ status: 422, body }));
    expect(toasts.events).toEqual(['<cleared>', 'A value was not accepted (items.0.fields.text). Check it and try again.']);
  });

  it('says a refusal with nothing to show for it in general terms, never nothing', () => {
    handleHttpError(new ApiError({ status: 403, body: { detail: { code: 'argilla.api.errors::ForbiddenOperationError', params: { detail: 'Operation not allowed' } } } }));
    expect(toasts.events).toEqual(['<cleared>', 'The server refused the request (HTTP 403).']);
  });

  it('translates into the current language', async () => {
    await changeLanguage('de');
    handleHttpError(new ApiError({ status: 429 }));
    expect(toasts.events[1]).toBe('Bitte warte einige Sekunden, bevor du es erneut versuchst');
    await changeLanguage('en');
  });

  it('rethrows as ApiError from apiRequest, with status, code and detail', async () => {
    stubFetch(422, { code: 'update_distribution_with_existing_responses', message: 'm' });
    const error = await apiRequest('PATCH', 'v1/datasets/1').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'update_distribution_with_existing_responses' });
    expect(toasts.events).toContain("Distribution settings can't be modified for a dataset containing user responses");
  });

  it('sends the token call form-encoded and skips the global handler', async () => {
    const fetchMock = stubFetch(401, { detail: { code: 'argilla.api.errors::UnauthorizedError', params: {} } });
    await expect(createToken('ann', 'pw d&x')).rejects.toMatchObject({ status: 401 });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/v1/token');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(init?.body).toBe('username=ann&password=pw+d%26x');
    expect(toasts.events).toEqual([]);
  });

  it('logs out on a 401 from the current-user call', async () => {
    writeToken('stale');
    const signedOut = vi.fn();
    bus.on('session:signed-out', signedOut);
    stubFetch(401, { detail: { code: 'argilla.api.errors::UnauthorizedError', params: { detail: 'Invalid token' } } });
    await expect(getCurrentUser()).rejects.toMatchObject({ status: 401 });
    expect(readToken()).toBeUndefined();
    expect(signedOut).toHaveBeenCalledWith({ reason: 'unauthorized' });
    bus.off('session:signed-out', signedOut);
  });

  it('sends the bearer token when signed in', async () => {
    writeToken('tok');
    const fetchMock = stubFetch(200, { id: 'u' });
    await apiRequest('GET', 'v1/me');
    expect((fetchMock.mock.calls[0][1]?.headers as Record<string, string>).Authorization).toBe('Bearer tok');
  });

  it('reports a refused token once, and again after a new sign-in', () => {
    const refused = () => new ApiError({ status: 401, body: { detail: 'Could not validate credentials' } });
    const expired = vi.fn();
    bus.on('session:expired', expired);
    try {
      expect(handleHttpError(refused(), { credentials: 'old' })).toEqual(['Could not validate credentials']);
      expect(handleHttpError(refused(), { credentials: 'old' })).toEqual([]);
      expect(handleHttpError(refused(), {})).toEqual([]); // the cleared session's next requests
      login('new');
      expect(handleHttpError(refused(), {})).toEqual(['Could not validate credentials']);
      expect(handleHttpError(refused(), { credentials: 'old' })).toEqual(['Could not validate credentials']);
      expect(expired).toHaveBeenCalledTimes(2);
    } finally {
      bus.off('session:expired', expired);
    }
  });
});
