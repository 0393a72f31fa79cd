import type { ToastPosition, ToastType } from '@scholia/shared/bus';

/** Timings of spec §9, plus how long an error stays longer and how a route change treats toasts. */
export const TOAST_TIMING = {
  appearDelayMs: 100,
  baseDurationMs: 6000,
  msPerChunk: 1000,
  charsPerChunk: 120,
  fadeOutMs: 150,
  queueCheckMs: 250,
  /** An error is read and often acted on: it stays this much longer. */
  dangerExtraMs: 4000,
  /** A page toast raised this recently survives a route change: it reports the action that navigated. */
  routeChangeGraceMs: 1000,
} as const;

/** 6000 ms plus 1000 ms per started block of 120 characters; an error 4000 ms more. */
export function toastDuration(message: string, type: ToastType = 'info'): number {
  const reading = TOAST_TIMING.baseDurationMs + TOAST_TIMING.msPerChunk * Math.ceil(message.length / TOAST_TIMING.charsPerChunk);
  return type === 'danger' ? reading + TOAST_TIMING.dangerExtraMs : reading;
}

/**
 * Bottom-left: the actions of a form sit at its bottom right (the annotation panel's Submit, Save
 * as draft and Discard), where a toast covered them. On a narrow screen every toast shows at the
 * top (the stylesheet), above the actions pinned to the bottom.
 */
export const DEFAULT_TOAST_POSITION: ToastPosition = 'bottom-left';
