import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearNotifications, notify, type ToastPosition } from '@scholia/shared/bus';
import { initI18n } from '@scholia/shared/i18n';
import { toastDuration, TOAST_TIMING } from './toast-timing.js';
import { DeferredToaster, loadToaster, TOASTER_PRELOAD_MS } from './deferred-toaster.js';

const advance = (ms: number) => act(() => { vi.advanceTimersByTime(ms); });
const toast = (text: string) => screen.queryByText(text)?.closest('.sch-toast') ?? null;
let navigate: NavigateFunction;

function NavigateProbe() {
  navigate = useNavigate();
  return null;
}

describe('Toaster', () => {
  beforeEach(async () => {
    vi.useFakeTimers();
    initI18n('en');
    render(<MemoryRouter initialEntries={['/dataset/1/settings']}><DeferredToaster /><NavigateProbe /></MemoryRouter>);
    advance(TOASTER_PRELOAD_MS); // the toaster's code is fetched unasked
    await act(async () => { await loadToaster(); });
  });
  afterEach(() => {
    act(() => clearNotifications());
    advance(TOAST_TIMING.fadeOutMs);
    cleanup();
    vi.useRealTimers();
  });

  it('shows a bus request after 100 ms, bottom-left by default, and removes it 150 ms after it closes', () => {
    act(() => notify({ message: 'Saved', type: 'success' }));
    advance(TOAST_TIMING.appearDelayMs - 1);
    expect(toast('Saved')).toBeNull();
    advance(1);
    expect(toast('Saved')?.parentElement?.dataset.position).toBe('bottom-left');
    advance(toastDuration('Saved'));
    expect(toast('Saved')?.getAttribute('data-state')).toBe('leaving');
    advance(TOAST_TIMING.fadeOutMs);
    expect(toast('Saved')).toBeNull();
  });

  it('closes after its time while the pointer rests on it', () => {
    act(() => notify({ message: 'Hover me' }));
    advance(TOAST_TIMING.appearDelayMs + 1000);
    fireEvent.mouseEnter(toast('Hover me')!);
    fireEvent.mouseOver(toast('Hover me')!);
    advance(toastDuration('Hover me') - 1000 - 1);
    expect(toast('Hover me')?.getAttribute('data-state')).toBe('visible');
    advance(1);
    expect(toast('Hover me')?.getAttribute('data-state')).toBe('leaving');
  });

  it('closes on a click on the toast or on its close control', () => {
    act(() => {
      notify({ message: 'Click me' });
      notify({ message: 'Use the control' });
    });
    advance(TOAST_TIMING.appearDelayMs);
    fireEvent.click(toast('Click me')!);
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' })[1]);
    advance(TOAST_TIMING.fadeOutMs);
    expect(toast('Click me')).toBeNull();
    expect(toast('Use the control')).toBeNull();
  });

  it('places toasts in each of the six positions', () => {
    const positions: ToastPosition[] = ['top-right', 'top', 'top-left', 'bottom-right', 'bottom', 'bottom-left'];
    act(() => positions.forEach((position) => notify({ message: `at ${position}`, position })));
    advance(TOAST_TIMING.appearDelayMs);
    for (const position of positions) expect(toast(`at ${position}`)?.parentElement?.dataset.position).toBe(position);
  });

  it('clears every toast when asked (the HTTP error handler starts with this)', () => {
    act(() => notify({ message: 'Old news' }));
    advance(TOAST_TIMING.appearDelayMs);
    act(() => clearNotifications());
    advance(TOAST_TIMING.fadeOutMs);
    expect(toast('Old news')).toBeNull();
  });

  it('keeps one toast for a repeated message, its time starting again', () => {
    act(() => notify({ message: 'Saved', type: 'success' }));
    advance(TOAST_TIMING.appearDelayMs + 4000);
    act(() => notify({ message: 'Saved', type: 'success' }));
    advance(TOAST_TIMING.appearDelayMs);
    expect(screen.getAllByText('Saved')).toHaveLength(1);
    advance(toastDuration('Saved') - TOAST_TIMING.appearDelayMs - 1);
    expect(toast('Saved')?.getAttribute('data-state')).toBe('visible');
    advance(1);
    expect(toast('Saved')?.getAttribute('data-state')).toBe('leaving');
  });

  it('keeps an error 4 s longer than a success of the same length', () => {
    act(() => notify({ message: 'Could not save', type: 'danger' }));
    advance(TOAST_TIMING.appearDelayMs + toastDuration('Could not save'));
    expect(toast('Could not save')?.getAttribute('data-state')).toBe('visible');
    advance(TOAST_TIMING.dangerExtraMs);
    expect(toast('Could not save')?.getAttribute('data-state')).toBe('leaving');
  });

  it('closes the page toasts of the screen left on a route change, not the app-wide ones or one raised by the navigating action', () => {
    act(() => {
      notify({ message: 'Settings saved', type: 'success' });
      notify({ message: 'Name is taken', type: 'danger' });
      notify({ message: 'You are offline', type: 'warning', scope: 'app' });
    });
    advance(TOAST_TIMING.routeChangeGraceMs);
    act(() => notify({ message: 'Dataset deleted', type: 'success' }));
    act(() => void navigate('/'));
    advance(TOAST_TIMING.fadeOutMs);
    expect(toast('Settings saved')).toBeNull();
    expect(toast('Name is taken')).toBeNull();
    expect(toast('You are offline')?.getAttribute('data-state')).toBe('visible');
    advance(TOAST_TIMING.appearDelayMs);
    expect(toast('Dataset deleted')?.getAttribute('data-state')).toBe('visible');
    act(() => void navigate('/dataset/2/annotation-mode?page=2'));
    advance(TOAST_TIMING.routeChangeGraceMs);
    act(() => void navigate('/dataset/2/annotation-mode?page=3')); // the query alone: the same page
    expect(toast('Dataset deleted')?.getAttribute('data-state')).toBe('visible');
    act(() => void navigate('/dataset/2/settings'));
    expect(toast('Dataset deleted')?.getAttribute('data-state')).toBe('leaving');
  });
});
