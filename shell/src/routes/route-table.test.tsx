import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '@scholia/shared/bus';
import { initI18n } from '@scholia/shared/i18n';
import { revalidateOnPathChange, routes } from './route-table.js';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<I18nextProvider i18n={initI18n('en')}><RouterProvider router={router} /></I18nextProvider>);
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
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    expect(localStorage.getItem('scholia.redirectTo')).toBe('/user-settings?tab=1');
  });

  it('shows toasts requested on the bus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderAt('/no/such/page');
    await screen.findByText('This page could not be found');
    act(() => notify({ message: 'Hello toast', type: 'success' }));
    await act(async () => { vi.advanceTimersByTime(100); });
    expect(screen.getByRole('status').textContent).toContain('Hello toast');
    vi.useRealTimers();
  });
});

describe('guard revalidation', () => {
  const args = (from: string, to: string) => ({
    currentUrl: new URL(from, 'http://x'), nextUrl: new URL(to, 'http://x'), defaultShouldRevalidate: true,
  }) as Parameters<typeof revalidateOnPathChange>[0];

  it('skips the guard when only the query changes (paging through records), runs it on a new path', () => {
    expect(revalidateOnPathChange(args('/dataset/1/annotation-mode', '/dataset/1/annotation-mode?page=2'))).toBe(false);
    expect(revalidateOnPathChange(args('/dataset/1/annotation-mode?page=2', '/dataset/1/settings'))).toBe(true);
  });
});
