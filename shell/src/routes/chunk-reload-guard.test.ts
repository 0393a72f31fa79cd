import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_WINDOW_MS, isChunkLoadError, reloadAfterChunkError, shouldReload } from './chunk-reload-guard.js';
import { statusOf } from './route-error.js';

function chunkError() {
  const error = new Error('Loading chunk 362 failed. (error: http://x/362.js)');
  error.name = 'ChunkLoadError';
  return error;
}

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe('chunk reload guard', () => {
  it('recognises chunk load errors only', () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new Error('Loading CSS chunk 12 failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
    expect(isChunkLoadError('Loading chunk 1 failed')).toBe(false);
  });

  it('reloads at most once per 60 seconds', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    let now = 1_000_000;
    const deps = { storage, reload, now: () => now };
    expect(reloadAfterChunkError(chunkError(), deps)).toBe(true);
    now += CHUNK_RELOAD_WINDOW_MS - 1;
    expect(reloadAfterChunkError(chunkError(), deps)).toBe(false);
    now += 1;
    expect(reloadAfterChunkError(chunkError(), deps)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
    expect(reloadAfterChunkError(new Error('other'), deps)).toBe(false);
  });

  it('never reloads while the browser is offline, and does once it is back', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    let online = false;
    const deps = { storage, reload, now: () => 1_000_000, online: () => online };
    expect(reloadAfterChunkError(chunkError(), deps)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    online = true;
    expect(reloadAfterChunkError(chunkError(), deps)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('never reloads where the browser denies sessionStorage: nothing would stop the next reload', () => {
    const reload = vi.fn();
    vi.spyOn(globalThis, 'sessionStorage', 'get').mockImplementation(() => { throw new DOMException('Access is denied for this document.', 'SecurityError'); });
    expect(reloadAfterChunkError(chunkError(), { reload, online: () => true })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('shouldReload with no previous reload', () => {
    expect(shouldReload(5, undefined)).toBe(true);
  });
});

describe('statusOf', () => {
  it('reads statusCode, status or response.status, else 500', () => {
    expect(statusOf({ statusCode: 404 })).toBe(404);
    expect(statusOf({ status: 403 })).toBe(403);
    expect(statusOf({ response: { status: 401 } })).toBe(401);
    expect(statusOf(new Error('x'))).toBe(500);
  });
});
