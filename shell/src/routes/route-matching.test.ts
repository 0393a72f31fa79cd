import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { routes } from './route-table.js';

/** The id of the deepest route the path lands on, and its params. */
function landing(path: string) {
  const matches = matchRoutes(routes, path) ?? [];
  const last = matches.at(-1);
  return { id: last?.route.id, params: last?.params };
}

describe('route table of spec §2', () => {
  it.each([
    ['/', 'home'],
    ['/sign-in', 'sign-in'],
    ['/welcome-hf-sign-in', 'welcome-hf-sign-in'],
    ['/user-settings', 'user-settings'],
    ['/new', 'new-dataset'],
    ['/new/abc', 'new-dataset'],
    ['/dataset/d1/annotation-mode', 'annotation-mode'],
    ['/dataset/annotation-mode', 'annotation-mode'],
    ['/dataset/d1/settings', 'dataset-settings'],
    ['/oauth/huggingface/callback', 'oauth-provider-callback'],
    ['/oauth/callback', 'oauth-provider-callback'],
  ])('%s is the %s screen', (path, id) => {
    expect(landing(path).id).toBe(id);
  });

  it('sends any other single segment to the hub import, with the encoded repository id', () => {
    expect(landing('/stanfordnlp%2Fimdb')).toMatchObject({ id: 'hub-import', params: { id: 'stanfordnlp/imdb' } });
  });

  it('gives every deeper unknown path the 404 page', () => {
    expect(landing('/no/such/page').id).toBe('not-found');
    expect(landing('/dataset/d1/unknown').id).toBe('not-found');
  });
});
