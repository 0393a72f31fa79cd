import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUrl, parseCacheControl } from './http-client.js';
import { queryClient } from './connection.js';
import { apiWrite, fetchCached, getQueryKey } from './query-client.js';

function stubFetch(headers: Record<string, string> = {}) {
  let n = 0;
  const fetchMock = vi.fn(async () => new Response(JSON.stringify({ n: ++n }), { status: 200, headers }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('GET cache', () => {
  beforeEach(() => {
    queryClient.clear();
    vi.useRealTimers();
  });

  it('keys on method, URL and params', () => {
    expect(getQueryKey('v1/me/datasets', { workspace_id: 'w' })).toEqual(['GET', 'v1/me/datasets', { workspace_id: 'w' }]);
    expect(buildUrl('v1/x', { include: ['responses', 'suggestions'], offset: 0, skip: undefined }))
      .toBe('/api/v1/x?include=responses&include=suggestions&offset=0');
  });

  it('serves a repeated GET from cache within max-age, and different params separately', async () => {
    const fetchMock = stubFetch({ 'Cache-Control': 'max-age=60' });
    expect(await fetchCached('v1/a', { p: 1 })).toEqual({ n: 1 });
    expect(await fetchCached('v1/a', { p: 1 })).toEqual({ n: 1 });
    expect(await fetchCached('v1/a', { p: 2 })).toEqual({ n: 2 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('refetches once max-age has passed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubFetch({ 'Cache-Control': 'max-age=1' });
    await fetchCached('v1/b');
    vi.advanceTimersByTime(1001);
    await fetchCached('v1/b');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });

  it('does not cache a no-cache answer', async () => {
    const fetchMock = stubFetch({ 'Cache-Control': 'no-cache' });
    await fetchCached('v1/c');
    await fetchCached('v1/c');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('invalidates cached GETs after a write', async () => {
    const fetchMock = stubFetch({ 'Cache-Control': 'max-age=600' });
    await fetchCached('v1/d');
    await apiWrite('POST', 'v1/workspaces', { json: { name: 'x' } });
    await fetchCached('v1/d');
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('parses Cache-Control', () => {
    expect(parseCacheControl('public, max-age=600')).toEqual({ maxAgeSeconds: 600, noCache: false });
    expect(parseCacheControl(null)).toEqual({ noCache: false });
    expect(parseCacheControl('no-store').noCache).toBe(true);
  });
});
