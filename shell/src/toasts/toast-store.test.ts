import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastStore } from './toast-store.js';
import { TOAST_TIMING, toastDuration } from './toast-timing.js';

describe('toastDuration', () => {
  it('is 6000 ms plus 1000 ms per started 120 characters', () => {
    expect(toastDuration('')).toBe(6000);
    expect(toastDuration('a')).toBe(7000);
    expect(toastDuration('a'.repeat(120))).toBe(7000);
    expect(toastDuration('a'.repeat(121))).toBe(8000);
  });

  it('gives an error 4000 ms more to be read', () => {
    expect(toastDuration('a', 'danger')).toBe(11_000);
    expect(toastDuration('a', 'warning')).toBe(7000);
  });
});

describe('ToastStore', () => {
  let store: ToastStore;
  beforeEach(() => {
    vi.useFakeTimers();
    store = new ToastStore({ setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id), now: () => Date.now() });
  });
  afterEach(() => vi.useRealTimers());

  it('appears after 100 ms at bottom-left by default and closes after its duration plus a 150 ms fade', () => {
    store.show({ message: 'Saved' });
    vi.advanceTimersByTime(99);
    expect(store.getSnapshot()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toMatchObject([{ message: 'Saved', position: 'bottom-left', state: 'visible' }]);
    vi.advanceTimersByTime(toastDuration('Saved') - 1);
    expect(store.getSnapshot()[0].state).toBe('visible');
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()[0].state).toBe('leaving');
    vi.advanceTimersByTime(TOAST_TIMING.fadeOutMs - 1);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it('closes on request with the fade, and clear closes all', () => {
    const a = store.show({ message: 'a' });
    store.show({ message: 'b', position: 'top' });
    vi.advanceTimersByTime(100);
    store.close(a);
    expect(store.getSnapshot().find((t) => t.id === a)?.state).toBe('leaving');
    store.clear();
    vi.advanceTimersByTime(150);
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it('keeps a queued toast waiting, rechecking every 250 ms, until the screen is free', () => {
    const first = store.show({ message: 'first' });
    store.show({ message: 'second', queue: true });
    vi.advanceTimersByTime(100);
    expect(store.getSnapshot().map((t) => t.message)).toEqual(['first']);
    store.close(first);
    vi.advanceTimersByTime(150); // first removed
    vi.advanceTimersByTime(TOAST_TIMING.queueCheckMs); // next check sees a free screen
    vi.advanceTimersByTime(TOAST_TIMING.appearDelayMs);
    expect(store.getSnapshot().map((t) => t.message)).toEqual(['second']);
  });

  it('does not stack a message already open, nor one still waiting to appear', () => {
    const first = store.show({ message: 'Saved', type: 'success' });
    expect(store.show({ message: 'Saved', type: 'success' })).toBe(first);
    vi.advanceTimersByTime(100);
    expect(store.show({ message: 'Saved', type: 'success' })).toBe(first);
    expect(store.show({ message: 'Saved', type: 'danger' })).not.toBe(first);
    vi.advanceTimersByTime(100);
    expect(store.getSnapshot().map((t) => t.type)).toEqual(['success', 'danger']);
  });

  it('on leaving a page closes its toasts older than the grace period, keeping app-wide ones', () => {
    store.show({ message: 'old page toast' });
    store.show({ message: 'offline', scope: 'app' });
    vi.advanceTimersByTime(TOAST_TIMING.routeChangeGraceMs);
    store.show({ message: 'raised by the navigation' });
    store.leavePage();
    vi.advanceTimersByTime(TOAST_TIMING.fadeOutMs);
    expect(store.getSnapshot().map((t) => t.message)).toEqual(['offline', 'raised by the navigation']);
  });

  it('notifies subscribers with a new snapshot', () => {
    const listener = vi.fn();
    store.subscribe(listener);
    store.show({ message: 'x', type: 'danger' });
    vi.advanceTimersByTime(100);
    expect(listener).toHaveBeenCalled();
    expect(store.getSnapshot()[0].type).toBe('danger');
  });
});
