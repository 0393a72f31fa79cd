import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, notify } from '@scholia/shared/bus';
import { initI18n } from '@scholia/shared/i18n';
import { DeferredToaster } from './deferred-toaster.js';
import { toastDuration } from './toast-timing.js';

const network = vi.hoisted(() => ({ offline: true }));

vi.mock('./toaster.js', async (importOriginal) => {
  if (network.offline) throw new TypeError('Failed to fetch dynamically imported module');
  return importOriginal();
});

describe('DeferredToaster', () => {
  afterEach(() => {
    act(() => clearNotifications());
    cleanup();
  });

  it('closes a plain toast after its time, as the toaster would', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    initI18n('en');
    render(<MemoryRouter><DeferredToaster /></MemoryRouter>);
    act(() => notify({ message: 'Could not save', type: 'danger' }));
    expect(await screen.findByText('Could not save')).toBeTruthy();
    act(() => { vi.advanceTimersByTime(toastDuration('Could not save', 'danger') - 100); });
    expect(screen.queryByText('Could not save')).not.toBeNull();
    act(() => { vi.advanceTimersByTime(100); });
    expect(screen.queryByText('Could not save')).toBeNull();
    vi.useRealTimers();
  });

  it('shows the waiting messages plainly while the toaster\'s code cannot be fetched, then hands them to it', async () => {
    initI18n('en');
    render(<MemoryRouter><DeferredToaster /></MemoryRouter>);
    act(() => notify({ message: 'You are offline', type: 'warning', scope: 'app' }));
    const plain = await screen.findByText('You are offline');
    expect(plain.closest('.sch-toasts')?.getAttribute('data-position')).toBe('bottom-left');
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull(); // the plain rendering
    act(() => notify({ message: 'Old news' }));
    const old = await screen.findByText('Old news');
    act(() => old.click()); // closes it
    expect(screen.queryByText('Old news')).toBeNull();

    network.offline = false;
    act(() => notify({ message: 'You are online again', type: 'success', scope: 'app' }));
    expect(await screen.findByText('You are online again')).toBeTruthy();
    expect(screen.getByText('You are offline')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Close' })).toHaveLength(2); // the toaster's own
  });
});
