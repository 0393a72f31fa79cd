import type { ToastPosition, ToastRequest, ToastType } from '@scholia/shared/bus';
import { DEFAULT_TOAST_POSITION, TOAST_TIMING, toastDuration } from './toast-timing.js';

export interface Toast {
  id: number;
  message: string;
  type: ToastType;
  position: ToastPosition;
  /** `leaving` during the 150 ms fade before removal. */
  state: 'visible' | 'leaving';
}

interface Entry extends Toast {
  scope: 'page' | 'app';
  /** When it was asked for (clock time). */
  requestedAt: number;
  /** Not on screen yet (waiting for its appear delay or its turn). */
  queued: boolean;
  /** Waiting for its turn in the queue. */
  waiting: boolean;
  timer?: ReturnType<typeof setTimeout>;
  durationMs: number;
}

export interface Clock {
  setTimeout: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clearTimeout: (id: ReturnType<typeof setTimeout> | undefined) => void;
  now: () => number;
}

const realClock: Clock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id),
  now: () => Date.now(),
};

/**
 * Toast lifecycle: appear after 100 ms, auto-close after `toastDuration` whatever the pointer does
 * (a toast kept open under the pointer hid what lay below it), fade 150 ms before removal; queued toasts wait, rechecked every 250 ms, for the screen to clear.
 */
export class ToastStore {
  private entries: Entry[] = [];
  private snapshot: readonly Toast[] = [];
  private listeners = new Set<() => void>();
  private nextId = 1;

  constructor(private readonly clock: Clock = realClock) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): readonly Toast[] => this.snapshot;

  /**
   * Shows a toast; the same message (type and position) as one still open does not stack: that
   * one stays, its time starting again.
   */
  show(request: ToastRequest): number {
    const type = request.type ?? 'info';
    const position = request.position ?? DEFAULT_TOAST_POSITION;
    const twin = this.entries.find((e) => e.state !== 'leaving' && e.message === request.message && e.type === type && e.position === position);
    if (twin) {
      this.restart(twin);
      return twin.id;
    }
    const entry: Entry = {
      id: this.nextId++,
      message: request.message,
      type,
      position,
      scope: request.scope ?? 'page',
      requestedAt: this.clock.now(),
      state: 'visible',
      queued: true,
      waiting: Boolean(request.queue),
      durationMs: toastDuration(request.message, type),
    };
    this.entries.push(entry);
    if (request.queue) this.waitForTurn(entry);
    else entry.timer = this.clock.setTimeout(() => this.appear(entry), TOAST_TIMING.appearDelayMs);
    return entry.id;
  }

  close(id: number): void {
    const entry = this.find(id);
    if (!entry || entry.state === 'leaving') return;
    this.clock.clearTimeout(entry.timer);
    if (entry.queued) {
      this.remove(entry);
      return;
    }
    entry.state = 'leaving';
    entry.timer = this.clock.setTimeout(() => this.remove(entry), TOAST_TIMING.fadeOutMs);
    this.emit();
  }

  clear(): void {
    for (const entry of [...this.entries]) this.close(entry.id);
  }

  /**
   * The user went to another route: the page toasts of the screen left are out of date. One asked
   * for within the grace period stays (the "created" or "deleted" of the action that navigated).
   */
  leavePage(): void {
    const now = this.clock.now();
    for (const entry of [...this.entries]) {
      if (entry.scope === 'page' && now - entry.requestedAt >= TOAST_TIMING.routeChangeGraceMs) this.close(entry.id);
    }
  }

  /** A repeated toast: its full time again from now. */
  private restart(entry: Entry): void {
    entry.requestedAt = this.clock.now();
    if (entry.queued) return;
    this.clock.clearTimeout(entry.timer);
    this.startTimer(entry);
  }

  private waitForTurn(entry: Entry): void {
    const check = () => {
      if (!this.entries.includes(entry)) return;
      const position = this.entries.indexOf(entry);
      // Busy while anything else is shown or about to be, or an older queued toast waits (FIFO).
      const busy = this.entries.some((e, i) => e !== entry && (!e.waiting || i < position));
      if (busy) {
        entry.timer = this.clock.setTimeout(check, TOAST_TIMING.queueCheckMs);
        return;
      }
      entry.waiting = false;
      entry.timer = this.clock.setTimeout(() => this.appear(entry), TOAST_TIMING.appearDelayMs);
    };
    check();
  }

  private appear(entry: Entry): void {
    entry.queued = false;
    this.startTimer(entry);
    this.emit();
  }

  private startTimer(entry: Entry): void {
    entry.timer = this.clock.setTimeout(() => this.close(entry.id), entry.durationMs);
  }

  private remove(entry: Entry): void {
    this.entries = this.entries.filter((e) => e !== entry);
    this.emit();
  }

  private find(id: number): Entry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  private emit(): void {
    this.snapshot = this.entries
      .filter((e) => !e.queued)
      .map(({ id, message, type, position, state }) => ({ id, message, type, position, state }));
    for (const listener of this.listeners) listener();
  }
}

/** The shell's toaster; fed by `toast:requested` bus events (see deferred-toaster.tsx). */
export const toastStore = new ToastStore();
