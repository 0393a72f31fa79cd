import { useSyncExternalStore } from 'react';

/** Width of the questions panel beside the record, chosen by dragging its edge; kept per browser. */
export const PANEL_WIDTH = { min: 300, max: 720, initial: 460, step: 24 } as const;
const STORAGE_KEY = 'scholia.annotation.panelWidth';

const clamp = (width: number) => Math.round(Math.min(PANEL_WIDTH.max, Math.max(PANEL_WIDTH.min, width)));

function readStored(): number {
  try {
    const stored = Number(localStorage.getItem(STORAGE_KEY));
    return Number.isFinite(stored) && stored > 0 ? clamp(stored) : PANEL_WIDTH.initial;
  } catch {
    // Storage refused (private mode, sandboxed host): the default width still works.
    return PANEL_WIDTH.initial;
  }
}

let current: number | undefined;
const listeners = new Set<() => void>();

export function panelWidth(): number {
  current ??= readStored();
  return current;
}

export function setPanelWidth(width: number, remember = true): void {
  const next = clamp(width);
  if (next !== panelWidth()) {
    current = next;
    for (const listener of listeners) listener();
  }
  if (!remember) return;
  try {
    localStorage.setItem(STORAGE_KEY, String(next));
  } catch {
    // Not remembered; the width holds until the page is left.
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePanelWidth(): number {
  return useSyncExternalStore(subscribe, panelWidth, panelWidth);
}

/** For tests: forget the width read from storage. */
export function resetPanelWidthForTests(): void {
  current = undefined;
}
