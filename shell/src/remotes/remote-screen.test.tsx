import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Language } from '@scholia/shared/i18n';

const runtime = vi.hoisted(() => ({
  registerRemotes: vi.fn(),
  loadRemote: vi.fn(async () => ({ App: () => <p>Settings remote</p> })),
}));
vi.mock('@module-federation/enhanced/runtime', () => runtime);

const { findVersionClashes } = await import('./remote-compatibility.js');

/** A fresh page: the screen module's caches (manifest, loaded remotes, reports) start empty. */
async function loadPage(language: Language = 'en') {
  vi.resetModules();
  const [{ RemoteScreen }, { bus }, { initI18n }, { I18nextProvider }] = await Promise.all([
    import('./remote-screen.js'), import('@scholia/shared/bus'), import('@scholia/shared/i18n'), import('react-i18next'),
  ]);
  const i18n = initI18n();
  await i18n.changeLanguage(language);
  const Screen = () => <I18nextProvider i18n={i18n}><RemoteScreen remote="mfe_settings" /></I18nextProvider>;
  return { Screen, bus };
}

const SHELL = { contract: '1.2.0', shared: { react: '19.3.1', 'react-router': '7.18.5' } };

/** The page as the server renders it: the registered remotes inlined in index.html. */
function servePage(remotes: Record<string, unknown>) {
  const meta = document.createElement('meta');
  meta.name = 'scholia-boot';
  meta.content = JSON.stringify({ remotes, app: {} });
  document.head.appendChild(meta);
}

describe('findVersionClashes', () => {
  it('compares the contract and every shared singleton both name, by major (by minor below 1.0)', () => {
    expect(findVersionClashes({ entry: '/e.js', contract: '1.0.0', shared: { react: '19.0.0', other: '3.0.0' } }, SHELL)).toEqual([]);
    expect(findVersionClashes({ entry: '/e.js', contract: '2.0.0', shared: { react: '18.3.1', 'react-router': '7.1.0' } }, SHELL)).toEqual([
      { what: '@scholia/shared contract', remote: '2.0.0', shell: '1.2.0' },
      { what: 'react', remote: '18.3.1', shell: '19.3.1' },
    ]);
    expect(findVersionClashes({ entry: '/e.js', contract: '0.2.0' }, { contract: '0.1.0', shared: {} })).toHaveLength(1);
  });

  it('rules out a remote built against a newer contract minor than the shell has, not an older one', () => {
    expect(findVersionClashes({ entry: '/e.js', contract: '1.3.0' }, SHELL)).toEqual([{ what: '@scholia/shared contract', remote: '1.3.0', shell: '1.2.0' }]);
    expect(findVersionClashes({ entry: '/e.js', contract: '1.1.9' }, SHELL)).toEqual([]);
    expect(findVersionClashes({ entry: '/e.js', contract: '1.2.7' }, SHELL)).toEqual([]);
  });

  it('has nothing to compare for a remote built without remote.json', () => {
    expect(findVersionClashes({ entry: '/e.js' }, SHELL)).toEqual([]);
  });
});

describe('RemoteScreen and remote versions', () => {
  const fetchImpl = vi.fn(async () => new Response(null, { status: 204 }));

  beforeEach(() => {
    vi.stubGlobal('__SCHOLIA_PLATFORM__', SHELL);
    vi.stubGlobal('fetch', fetchImpl);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    runtime.loadRemote.mockClear();
    fetchImpl.mockClear();
  });

  afterEach(() => {
    cleanup();
    document.head.innerHTML = '';
  });

  const show = async (language: Language = 'en') => {
    const { Screen } = await loadPage(language);
    render(<Screen />);
  };

  it('mounts a remote built against the same majors', async () => {
    servePage({ mfe_settings: { entry: '/remotes/mfe-settings/remoteEntry.js', version: '0.1.0', contract: '1.0.0', shared: { react: '19.0.0' } } });
    await show();
    expect(await screen.findByText('Settings remote')).toBeTruthy();
  });

  it('shows the updating fallback instead of a remote built against another contract major, and reports it', async () => {
    const events: unknown[] = [];
    const listener = (event: unknown) => events.push(event);
    servePage({ mfe_settings: { entry: 'https://cdn.example.org/mfe-settings/remoteEntry.js', version: '0.4.0', contract: '2.0.0', shared: { react: '19.3.1' } } });
    const { bus, Screen } = await loadPage();
    bus.on('remote:incompatible', listener);
    render(<Screen />);
    expect(await screen.findByRole('heading', { name: 'This part of Scholia is being updated' })).toBeTruthy();
    const area = screen.getByRole('status');
    expect(area.dataset.remote).toBe('mfe_settings');
    expect(area.textContent).toContain('mfe_settings 0.4.0');
    expect(area.textContent).toContain('@scholia/shared contractbuilt for 2.0.0, this Scholia has 1.2.0');
    expect(runtime.loadRemote).not.toHaveBeenCalled();
    bus.off('remote:incompatible', listener);
    expect(events).toEqual([{ remote: 'mfe_settings', version: '0.4.0', clashes: [{ what: '@scholia/shared contract', remote: '2.0.0', shell: '1.2.0' }] }]);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/client-errors');
    expect(JSON.parse(String(init.body))).toEqual({
      kind: 'remote-incompatible', remote: 'mfe_settings',
      message: 'mfe_settings 0.4.0 was built against @scholia/shared contract 2.0.0; this Scholia has @scholia/shared contract 1.2.0',
      details: { version: '0.4.0', '@scholia/shared contract': '2.0.0 (shell 1.2.0)' },
    });
  });

  it('shows the fallback in German', async () => {
    servePage({ mfe_settings: { entry: '/remotes/mfe-settings/remoteEntry.js', contract: '1.0.0', shared: { react: '20.0.0' } } });
    await show('de');
    expect(await screen.findByRole('heading', { name: 'Dieser Teil von Scholia wird gerade aktualisiert' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('gebaut für 20.0.0, dieses Scholia hat 19.3.1');
  });
});
