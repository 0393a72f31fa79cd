import type { ApiConnection } from '@scholia/shared/api';
import { onAnswerStored, sendKeptAnswers } from './use-response-actions.js';

/** The waits between tries while answers wait: doubling from `firstMs` up to `maxMs`, which then repeats. */
export const KEPT_ANSWERS_RETRY = { firstMs: 2_000, maxMs: 60_000 } as const;

/**
 * Sends the answers the connection's user kept in the browser, until none waits: when the screen
 * opens, then again and again with a growing wait while some wait (the server, not the network,
 * may have been down: then the browser's `online` never comes), and at once when the browser is
 * back online or an answer went through (the server is back). `onSent` is told when some went
 * out. Returns the stop.
 */
export function startSendingKeptAnswers(connection: ApiConnection, datasetId: string, onSent: () => void): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay: number = KEPT_ANSWERS_RETRY.firstMs;
  let running = false;
  let again = false;

  const later = () => {
    if (stopped || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      attempt();
    }, delay);
    delay = Math.min(delay * 2, KEPT_ANSWERS_RETRY.maxMs);
  };

  function attempt(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    timer = undefined;
    running = true;
    void sendKeptAnswers(connection, datasetId).then(
      ({ sent, waiting }) => {
        if (sent > 0 && !stopped) onSent();
        return waiting;
      },
      () => true, // the server could not say who the user is: it may be down, try later
    ).then((waiting) => {
      running = false;
      if (again) {
        again = false;
        attempt();
      } else if (waiting) later();
      else delay = KEPT_ANSWERS_RETRY.firstMs;
    });
  }

  const stopListening = onAnswerStored(connection, (kind) => (kind === 'saved' ? attempt() : later()));
  globalThis.addEventListener?.('online', attempt);
  attempt();
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopListening();
    globalThis.removeEventListener?.('online', attempt);
  };
}
