import { describe, expect, it } from 'vitest';
import { hubUrl } from './hub-http.js';
import { hubRepoIdProblem } from './hub-repo-id.js';

describe('Hub URLs and repository ids', () => {
  it('encodes each path segment so no value adds, leaves or changes a segment', () => {
    expect(hubUrl('https://hub.test', ['datasets', 'alice', 'a/b?c#d'])).toBe('https://hub.test/datasets/alice/a%2Fb%3Fc%23d');
    expect(new URL(hubUrl('https://hub.test', ['api', 'datasets', '%2e%2e'])).pathname).toBe('/api/datasets/%252e%252e');
    expect(hubUrl('https://viewer.test', ['rows'], { dataset: 'a/b&x=1', offset: '0' })).toBe('https://viewer.test/rows?dataset=a%2Fb%26x%3D1&offset=0');
  });

  it('refuses the dot segments URLs resolve even when encoded', () => {
    for (const segment of ['.', '..', '']) expect(() => hubUrl('https://hub.test', ['datasets', segment])).toThrow(/not a URL path segment/);
  });

  it('accepts the names the Hub accepts and names the broken rule otherwise', () => {
    for (const ok of ['imdb', 'alice/data', 'Org_1/my.data-set_2', `${'a'.repeat(96)}/${'b'.repeat(96)}`]) expect(hubRepoIdProblem(ok), ok).toBeUndefined();
    expect(hubRepoIdProblem('a/b/c')).toMatch(/more than one/);
    expect(hubRepoIdProblem(`a/${'b'.repeat(97)}`)).toMatch(/at most 96/);
    expect(hubRepoIdProblem('a/b c')).toMatch(/only letters/);
    expect(hubRepoIdProblem('a/-b')).toMatch(/start or end/);
    expect(hubRepoIdProblem('a/b--c')).toMatch(/`--`/);
    expect(hubRepoIdProblem('a/b..c')).toMatch(/`\.\.`/);
    expect(hubRepoIdProblem('/b')).toMatch(/empty/);
  });
});
