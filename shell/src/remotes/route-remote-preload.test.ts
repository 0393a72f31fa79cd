import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadRouteRemote, readRemoteManifest, remoteForPath, resetRemoteManifest } from './route-remote-preload.js';

describe('remoteForPath', () => {
  it('maps signed-in routes to the remote they show', () => {
    expect(remoteForPath('/', true)).toBe('mfe_home');
    expect(remoteForPath('/dataset/abc/annotation-mode', true)).toBe('mfe_annotation');
    expect(remoteForPath('/dataset/abc/settings', true)).toBe('mfe_settings');
    expect(remoteForPath('/new/org%2Frepo', true)).toBe('mfe_hub_import');
    expect(remoteForPath('/org%2Frepo', true)).toBe('mfe_hub_import');
    expect(remoteForPath('/user-settings', true)).toBeUndefined();
    expect(remoteForPath('/sign-in', true)).toBe('mfe_home');
    expect(remoteForPath('/no/such/page', true)).toBeUndefined();
  });

  it('sends anonymous visitors of guarded routes to the sign-in remote', () => {
    expect(remoteForPath('/', false)).toBe('mfe_auth');
    expect(remoteForPath('/dataset/abc/annotation-mode', false)).toBe('mfe_auth');
    expect(remoteForPath('/user-settings', false)).toBe('mfe_auth');
    expect(remoteForPath('/oauth/huggingface/callback', false)).toBe('mfe_auth');
    expect(remoteForPath('/no/such/page', false)).toBeUndefined();
  });
});

describe('preloadRouteRemote', () => {
  afterEach(() => {
    resetRemoteManifest();
    document.head.innerHTML = '';
    localStorage.clear();
  });

  it('preloads the entry and the App expose of the route remote, reading remotes.json once', async () => {
    localStorage.setItem('scholia.token', 't');
    const fetchImpl = vi.fn(async (url: string | URL | Request) => {
      const href = String(url);
      if (href === '/remotes.json') return Response.json({ mfe_home: '/remotes/mfe-home/remoteEntry.js' });
      if (href.endsWith('/remotes/mfe-home/mf-manifest.json')) {
        return Response.json({ exposes: [{ name: 'App', assets: { js: { sync: ['app.1.js'] }, css: { sync: ['app.1.css'] } } }] });
      }
      return new Response('', { status: 404 });
    });
    await preloadRouteRemote(fetchImpl as typeof fetch);
    const links = [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => `${l.getAttribute('as')} ${new URL((l as HTMLLinkElement).href).pathname}`);
    expect(links).toEqual(['script /remotes/mfe-home/remoteEntry.js', 'script /remotes/mfe-home/app.1.js', 'style /remotes/mfe-home/app.1.css']);
    await readRemoteManifest(fetchImpl as typeof fetch);
    expect(fetchImpl.mock.calls.filter(([u]) => String(u) === '/remotes.json')).toHaveLength(1);
  });

  it('uses the manifest the server inlined into index.html, fetching nothing', async () => {
    localStorage.setItem('scholia.token', 't');
    const boot = document.createElement('meta');
    boot.name = 'scholia-boot';
    boot.content = JSON.stringify({
      remotes: { mfe_home: '/remotes/mfe-home/remoteEntry.js' },
      app: { mfe_home: ['/remotes/mfe-home/app.2.js', '/remotes/mfe-home/app.2.css'] },
    });
    document.head.appendChild(boot);
    const fetchImpl = vi.fn(async () => new Response('', { status: 500 }));
    await preloadRouteRemote(fetchImpl as typeof fetch);
    const links = [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => `${l.getAttribute('as')} ${new URL((l as HTMLLinkElement).href).pathname}`);
    expect(links).toEqual(['script /remotes/mfe-home/remoteEntry.js', 'script /remotes/mfe-home/app.2.js', 'style /remotes/mfe-home/app.2.css']);
    expect(await readRemoteManifest(fetchImpl as typeof fetch)).toEqual({ mfe_home: { entry: '/remotes/mfe-home/remoteEntry.js' } });
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('preloads nothing of a remote the shell will not mount (another contract major)', async () => {
    vi.stubGlobal('__SCHOLIA_PLATFORM__', { contract: '1.0.0', shared: {} });
    localStorage.setItem('scholia.token', 't');
    const boot = document.createElement('meta');
    boot.name = 'scholia-boot';
    boot.content = JSON.stringify({
      remotes: { mfe_home: { entry: 'https://cdn.example.org/mfe-home/remoteEntry.js', contract: '2.0.0' } },
      app: { mfe_home: ['https://cdn.example.org/mfe-home/app.2.js'] },
    });
    document.head.appendChild(boot);
    await preloadRouteRemote(vi.fn() as typeof fetch);
    expect(document.head.querySelectorAll('link[rel="preload"]')).toHaveLength(0);
  });
});
