import { act, cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useLocation, useNavigate, type NavigateFunction } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, queryClient } from '@scholia/shared/api';
import { bus, notify } from '@scholia/shared/bus';
import { initI18n } from '@scholia/shared/i18n';
import type { GuardServices } from './guard-chain.js';
import { GuardedRoutes, ShellRoot } from './route-table.js';
import { stubGuardServices } from './stub-guard-services.js';

/** The router's current location and its navigate function, for the assertions. */
const router: { location?: string; navigate?: NavigateFunction } = {};

function RouterProbe() {
  const location = useLocation();
  router.location = `${location.pathname}${location.search}`;
  router.navigate = useNavigate();
  return null;
}

function renderIn(path: string, children: ReactNode) {
  return render(
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={initI18n('en')}>
        <MemoryRouter initialEntries={[path]}>{children}<RouterProbe /></MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

function renderAt(path: string) {
  renderIn(path, <ShellRoot />);
  return router;
}

describe('route table', () => {
  afterEach(cleanup);
  beforeEach(() => {
    localStorage.clear();
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 404 })));
  });

  it('shows the 404 page for an unknown route', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByText('This page could not be found')).toBeTruthy();
    expect(screen.getByText('Something went wrong.')).toBeTruthy();
    expect(screen.getByText("We can't seem to find the page you are looking for")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home page' }).getAttribute('href')).toBe('/');
  });

  it('redirects an anonymous visitor to sign-in and stores redirectTo', async () => {
    const router = renderAt('/user-settings?tab=1');
    await vi.waitFor(() => expect(router.location).toBe('/sign-in'));
    expect(localStorage.getItem('scholia.redirectTo')).toBe('/user-settings?tab=1');
  });

  it('a sign-out sends a private screen to sign-in, but leaves the OAuth callback mid-exchange', async () => {
    const router = renderAt('/oauth/huggingface/callback?code=c&state=s');
    await vi.waitFor(() => expect(router.location).toBe('/oauth/huggingface/callback?code=c&state=s'));
    act(() => bus.emit('session:signed-out', { reason: 'unauthorized' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(router.location).toBe('/oauth/huggingface/callback?code=c&state=s');
    cleanup();
    const other = renderAt('/no/such/page');
    await screen.findByText('This page could not be found');
    act(() => bus.emit('session:signed-out', { reason: 'unauthorized' }));
    await vi.waitFor(() => expect(other.location).toBe('/sign-in'));
  });

  it('shows toasts requested on the bus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderAt('/no/such/page');
    await screen.findByText('This page could not be found');
    act(() => notify({ message: 'Hello toast', type: 'success' }));
    // The toaster's code arrives with the first toast; the request waits for it.
    expect((await screen.findByRole('status')).textContent).toContain('Hello toast');
    vi.useRealTimers();
  });
});

describe('guard chain in the route table', () => {
  afterEach(cleanup);
  beforeEach(() => {
    localStorage.clear();
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 404 })));
  });

  /** A signed-in user; setupLanguage is the chain's last step, so its calls count the runs. */
  function services(overrides: Partial<GuardServices> = {}): GuardServices {
    return stubGuardServices({ isLoggedIn: () => true, hasCurrentUser: () => true, ...overrides });
  }

  it('skips the guard when only the query changes (paging through records), runs it on a new path', async () => {
    const s = services();
    renderIn('/user-settings', <GuardedRoutes services={s} />);
    await vi.waitFor(() => expect(s.setupLanguage).toHaveBeenCalledTimes(1));
    await act(async () => { await router.navigate?.('/user-settings?page=2'); });
    expect(router.location).toBe('/user-settings?page=2');
    expect(s.setupLanguage).toHaveBeenCalledTimes(1);
    await act(async () => { await router.navigate?.('/no/such/page'); });
    expect(await screen.findByText('This page could not be found')).toBeTruthy();
    await act(async () => { await router.navigate?.('/user-settings'); });
    await vi.waitFor(() => expect(s.setupLanguage).toHaveBeenCalledTimes(2));
  });

  it('runs the guard again on every navigation to sign-in, query included', async () => {
    const s = services({ isLoggedIn: () => false, hasCurrentUser: () => false });
    renderIn('/sign-in', <GuardedRoutes services={s} />);
    await vi.waitFor(() => expect(s.setupLanguage).toHaveBeenCalledTimes(1));
    await act(async () => { await router.navigate?.('/sign-in?omitCTA=1'); });
    await vi.waitFor(() => expect(s.setupLanguage).toHaveBeenCalledTimes(2));
    // Like the data router: a hash of the page shown runs no guard.
    await act(async () => { await router.navigate?.('/sign-in?omitCTA=1#form'); });
    expect(s.setupLanguage).toHaveBeenCalledTimes(2);
  });

  it('renders a route without a guard at once, a guarded one after <Booting /> on the first visit', async () => {
    let finish = () => {};
    const s = services({ setupLanguage: vi.fn(() => new Promise<void>((resolve) => { finish = resolve; })) });
    renderIn('/no-such/deep/page', <GuardedRoutes services={s} />);
    expect(screen.getByText('This page could not be found')).toBeTruthy();
    cleanup();
    renderIn('/user-settings', <GuardedRoutes services={s} />);
    expect(document.querySelector('.sch-loading[aria-busy="true"]')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'My settings' })).toBeNull();
    await vi.waitFor(() => expect(s.setupLanguage).toHaveBeenCalled());
    await act(async () => finish());
    expect(await screen.findByRole('heading', { name: 'My settings' })).toBeTruthy();
  });

  it('keeps the previous screen while the next guard runs', async () => {
    let finish = () => {};
    const s = services({ setupLanguage: vi.fn(() => new Promise<void>((resolve) => { finish = resolve; })) });
    renderIn('/no/such/page', <GuardedRoutes services={s} />);
    await act(async () => { await router.navigate?.('/user-settings'); });
    await vi.waitFor(() => expect(s.setupLanguage).toHaveBeenCalled());
    expect(router.location).toBe('/user-settings');
    expect(screen.getByText('This page could not be found')).toBeTruthy();
    await act(async () => finish());
    expect(await screen.findByRole('heading', { name: 'My settings' })).toBeTruthy();
    expect(screen.queryByText('This page could not be found')).toBeNull();
  });

  it('follows the redirect of the guard and stores redirectTo', async () => {
    const s = services({ isLoggedIn: () => false, hasCurrentUser: () => false });
    renderIn('/no/such/page', <GuardedRoutes services={s} />);
    await act(async () => { await router.navigate?.('/dataset/1/settings?x=1'); });
    await vi.waitFor(() => expect(router.location).toBe('/sign-in'));
    expect(s.storeRedirectTo).toHaveBeenCalledWith('/dataset/1/settings?x=1');
  });

  it('shows the error page when a guard step fails', async () => {
    const s = services({
      hasCurrentUser: () => false,
      loadCurrentUser: vi.fn(async () => { throw new ApiError({ status: 503, body: { detail: 'Database is restarting' } }); }),
    });
    renderIn('/user-settings', <GuardedRoutes services={s} />);
    await screen.findByRole('heading', { name: 'Something went wrong.' });
    expect(document.querySelector('.sch-error-page__code')?.textContent).toBe('503');
    expect(document.querySelector('.sch-error-page__message')?.textContent).toBe('Database is restarting');
  });
});
