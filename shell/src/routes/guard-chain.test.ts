import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHAIN, runGuardChain, type GuardRoute, type GuardServices } from './guard-chain.js';
import { RouteError } from './route-error.js';
import { stubGuardServices } from './stub-guard-services.js';
import type { RouteName } from './route-names.js';

const services = stubGuardServices;

function route(name: RouteName, fullPath = '/', query: Record<string, string> = {}): GuardRoute {
  return { name, path: fullPath.split('?')[0], fullPath, query };
}

const run = (r: GuardRoute, s: GuardServices) => runGuardChain(DEFAULT_CHAIN, r, s);

describe('route guard', () => {
  it('sends an annotator away from the hub import screens to the root; admins and owners go in', async () => {
    const annotator = services({ isLoggedIn: () => true, hasCurrentUser: () => true, currentRole: () => 'annotator' });
    await expect(run(route('hub-import', '/stanfordnlp%2Fimdb'), annotator)).resolves.toEqual({ redirect: '/' });
    await expect(run(route('new-dataset', '/new/stanfordnlp%2Fimdb'), annotator)).resolves.toEqual({ redirect: '/' });
    await expect(run(route('dataset-settings', '/dataset/1/settings'), annotator)).resolves.toBeUndefined();
    const admin = services({ isLoggedIn: () => true, hasCurrentUser: () => true, currentRole: () => 'admin' });
    await expect(run(route('hub-import', '/stanfordnlp%2Fimdb'), admin)).resolves.toBeUndefined();
  });

  it('sends an anonymous visitor to sign-in and remembers the full path', async () => {
    const s = services();
    await expect(run(route('dataset-settings', '/dataset/1/settings?x=1'), s)).resolves.toEqual({ redirect: '/sign-in' });
    expect(s.storeRedirectTo).toHaveBeenCalledWith('/dataset/1/settings?x=1');
  });

  it('does not store redirectTo for the root', async () => {
    const s = services();
    await expect(run(route('home', '/'), s)).resolves.toEqual({ redirect: '/sign-in' });
    expect(s.storeRedirectTo).not.toHaveBeenCalled();
  });

  it('sends a logged-in user away from sign-in to the root', async () => {
    await expect(run(route('sign-in', '/sign-in'), services({ isLoggedIn: () => true, hasCurrentUser: () => true })))
      .resolves.toEqual({ redirect: '/' });
  });

  it('shows sign-in as is with omitCTA, even on the hub-hosted variant', async () => {
    const s = services({ isHubSpace: async () => true });
    await expect(run(route('sign-in', '/sign-in?omitCTA=true', { omitCTA: 'true' }), s)).resolves.toBeUndefined();
  });

  it('sends sign-in to the welcome screen on the hub-hosted variant', async () => {
    await expect(run(route('sign-in', '/sign-in'), services({ isHubSpace: async () => true })))
      .resolves.toEqual({ redirect: '/welcome-hf-sign-in' });
  });

  it('sends an OAuth callback without query to the root', async () => {
    await expect(run(route('oauth-provider-callback', '/oauth/huggingface/callback'), services()))
      .resolves.toEqual({ redirect: '/' });
    await expect(run(route('oauth-provider-callback', '/oauth/hf/callback?code=1', { code: '1' }), services()))
      .resolves.toBeUndefined();
  });

  it('shows welcome only to anonymous users of the hub-hosted variant', async () => {
    await expect(run(route('welcome-hf-sign-in', '/welcome-hf-sign-in'), services())).resolves.toEqual({ redirect: '/' });
    await expect(run(route('welcome-hf-sign-in', '/welcome-hf-sign-in'), services({ isHubSpace: async () => true })))
      .resolves.toBeUndefined();
    await expect(run(route('welcome-hf-sign-in', '/welcome-hf-sign-in'),
      services({ isHubSpace: async () => true, isLoggedIn: () => true, hasCurrentUser: () => true }))).resolves.toEqual({ redirect: '/' });
  });
});

describe('guard chain', () => {
  it('runs guard, current-user load and language setup in order', async () => {
    const calls: string[] = [];
    const s = services({
      isLoggedIn: () => true,
      loadCurrentUser: async () => { calls.push('user'); return true; },
      setupLanguage: async () => { calls.push('language'); },
    });
    await expect(run(route('home'), s)).resolves.toBeUndefined();
    expect(calls).toEqual(['user', 'language']);
  });

  it('loads the current user only when logged in and not yet loaded', async () => {
    const loaded = services({ isLoggedIn: () => true, hasCurrentUser: () => true });
    await run(route('home'), loaded);
    expect(loaded.loadCurrentUser).not.toHaveBeenCalled();
    const anonymous = services();
    await run(route('sign-in', '/sign-in'), anonymous);
    expect(anonymous.loadCurrentUser).not.toHaveBeenCalled();
  });

  it('goes to sign-in when the current-user call says 401', async () => {
    const s = services({ isLoggedIn: () => true, loadCurrentUser: async () => false });
    await expect(run(route('home'), s)).resolves.toEqual({ redirect: '/sign-in' });
    expect(s.setupLanguage).not.toHaveBeenCalled();
    expect(s.storeRedirectTo).not.toHaveBeenCalled();
  });

  it('remembers the page asked for when an expired token is refused', async () => {
    const s = services({ isLoggedIn: () => true, loadCurrentUser: async () => false });
    await expect(run(route('dataset-settings', '/dataset/1/settings?x=1'), s)).resolves.toEqual({ redirect: '/sign-in' });
    expect(s.storeRedirectTo).toHaveBeenCalledWith('/dataset/1/settings?x=1');
  });

  it('lets an OAuth callback go on when the stored token is refused', async () => {
    const s = services({ isLoggedIn: () => true, loadCurrentUser: async () => false });
    await expect(run(route('oauth-provider-callback', '/oauth/huggingface/callback?code=c', { code: 'c' }), s)).resolves.toBeUndefined();
    expect(s.storeRedirectTo).not.toHaveBeenCalled();
  });

  it("fails with 500 'Unknown middleware' for an unknown step", async () => {
    const error = await runGuardChain(['route-guard', 'nope'], route('sign-in', '/sign-in'), services()).catch((e) => e);
    expect(error).toBeInstanceOf(RouteError);
    expect(error).toMatchObject({ statusCode: 500, message: 'Unknown middleware' });
  });

  it('does not treat Object prototype keys as steps', async () => {
    await expect(runGuardChain(['toString'], route('home'), services())).rejects.toMatchObject({ statusCode: 500 });
  });
});
