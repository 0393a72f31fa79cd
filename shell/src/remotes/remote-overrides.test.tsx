import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const runtime = vi.hoisted(() => ({
  registerRemotes: vi.fn(),
  loadRemote: vi.fn(async () => ({ App: () => <p>Settings from the dev server</p> })),
}));
vi.mock('@module-federation/enhanced/runtime', () => runtime);

const DEV_ENTRY = 'http://localhost:3104/remoteEntry.js';

/** The page as a server with SCHOLIA_REMOTE_OVERRIDES (or without) renders it. */
function servePage(overrides: boolean) {
  const meta = document.createElement('meta');
  meta.name = 'scholia-boot';
  meta.content = JSON.stringify({
    remotes: { mfe_settings: { entry: '/remotes/mfe-settings/remoteEntry.js', contract: '9.0.0' } },
    app: {},
    ...(overrides ? { overrides: true } : {}),
  });
  document.head.appendChild(meta);
}

/** A fresh page: module caches empty, the current user answered by `role`. */
async function loadPage(role: string) {
  vi.resetModules();
  vi.stubGlobal('fetch', vi.fn(async (url: string | URL | Request) =>
    String(url).endsWith('/api/v1/me') ? Response.json({ id: 'u1', username: 'dev', role }) : new Response(null, { status: 204 })));
  const [overrides, screenModule, banner, api, i18n, reactI18n, query] = await Promise.all([
    import('./remote-overrides.js'), import('./remote-screen.js'), import('../chrome/remote-override-banner.js'),
    import('@scholia/shared/api'), import('@scholia/shared/i18n'), import('react-i18next'), import('@tanstack/react-query'),
  ]);
  // The query cache outlives module resets: forget the previous test's user.
  api.queryClient.clear();
  api.writeToken('token');
  const Page = () => (
    <query.QueryClientProvider client={api.queryClient}>
      <reactI18n.I18nextProvider i18n={i18n.initI18n('en')}>
        <banner.RemoteOverrideBanner />
        <screenModule.RemoteScreen remote="mfe_settings" />
      </reactI18n.I18nextProvider>
    </query.QueryClientProvider>
  );
  return { overrides, Page };
}

describe('remote overrides (SCHOLIA_REMOTE_OVERRIDES)', () => {
  beforeEach(() => {
    vi.stubGlobal('__SCHOLIA_PLATFORM__', { contract: '1.0.0', shared: {} });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    runtime.registerRemotes.mockClear();
    runtime.loadRemote.mockClear();
    localStorage.setItem('scholia.remoteOverrides', JSON.stringify({
      mfe_settings: DEV_ENTRY, mfe_home: 'https://elsewhere.example.org/remoteEntry.js', mfe_auth: 'http://localhost:3100/index.html',
    }));
  });

  afterEach(() => {
    cleanup();
    document.head.innerHTML = '';
    localStorage.clear();
  });

  it('keep only entries on a dev server on this machine, and none unless the server allows them', async () => {
    servePage(false);
    expect((await loadPage('owner')).overrides.readRemoteOverrides()).toEqual({});
    document.head.innerHTML = '';
    servePage(true);
    expect((await loadPage('owner')).overrides.readRemoteOverrides()).toEqual({ mfe_settings: DEV_ENTRY });
  });

  it("load an owner's remote from the dev server, with a banner that turns it off", async () => {
    servePage(true);
    const { Page } = await loadPage('owner');
    render(<Page />);
    expect(await screen.findByText('Settings from the dev server')).toBeTruthy();
    expect(runtime.registerRemotes).toHaveBeenLastCalledWith([{ name: 'mfe_settings', entry: DEV_ENTRY }], { force: true });
    const banner = await screen.findByTestId('remote-override-banner');
    expect(banner.textContent).toContain(`Development override: mfe_settings → ${DEV_ENTRY}. Only your browser loads these.`);
    vi.spyOn(console, 'error').mockImplementation(() => {}); // jsdom cannot reload the page
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(localStorage.getItem('scholia.remoteOverrides')).toBeNull();
  });

  it('are ignored for anyone but an owner: the registered remote, checked as usual', async () => {
    servePage(true);
    const { Page } = await loadPage('admin');
    render(<Page />);
    expect(await screen.findByRole('heading', { name: 'This part of Scholia is being updated' })).toBeTruthy();
    expect(runtime.registerRemotes).not.toHaveBeenCalledWith([{ name: 'mfe_settings', entry: DEV_ENTRY }], { force: true });
    expect(screen.queryByTestId('remote-override-banner')).toBeNull();
  });
});
