import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHubEndpoints, fetchHubDatasetInfo, HubLookupError } from './hub-datasets.js';

const reasonOf = (repoId: string) => fetchHubDatasetInfo(repoId).then(() => 'found', (error: HubLookupError) => `${error.reason} ${error.status ?? ''}`.trim());

describe('hub repository lookup', () => {
  beforeEach(() => configureHubEndpoints({ hubUrl: 'http://hub.test', datasetsServerUrl: 'http://viewer.test' }));

  it('tells a missing or closed repository from a Hub out of reach and a failing viewer', async () => {
    vi.stubGlobal('fetch', vi.fn(async (input: string) => {
      const repo = new URL(input).searchParams.get('dataset');
      if (repo === 'down/repo') throw new TypeError('Failed to fetch');
      if (repo === 'gated/repo') return new Response('{}', { status: 401 });
      if (repo === 'missing/repo') return new Response('{}', { status: 404 });
      if (repo === 'broken/repo') return new Response('{}', { status: 500 });
      if (repo === 'empty/repo') return Response.json({ dataset_info: {} });
      return Response.json({ dataset_info: { default: { features: {}, splits: { train: { name: 'train' } } } } });
    }));
    await expect(reasonOf('down/repo')).resolves.toBe('unreachable');
    await expect(reasonOf('gated/repo')).resolves.toBe('not-found 401');
    await expect(reasonOf('missing/repo')).resolves.toBe('not-found 404');
    await expect(reasonOf('broken/repo')).resolves.toBe('viewer-failed 500');
    await expect(reasonOf('empty/repo')).resolves.toBe('not-found');
    await expect(reasonOf('ok/repo')).resolves.toBe('found');
  });
});
