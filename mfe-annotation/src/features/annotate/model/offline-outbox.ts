import type { MyResponsesBulkItem, MyResponsesBulkResult } from '@scholia/shared/api';
import { chunk, type BulkFailure } from './bulk-annotation.js';

const KEY = 'scholia.annotation.outbox';

export interface OutboxItem extends MyResponsesBulkItem {
  datasetId: string;
  /** Distinguishes a newer answer for the same record given while a flush was running. */
  seq: number;
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function readOutbox(): OutboxItem[] {
  try {
    return JSON.parse(storage()?.getItem(KEY) ?? '[]') as OutboxItem[];
  } catch {
    return [];
  }
}

function writeOutbox(items: OutboxItem[]): void {
  if (items.length) storage()?.setItem(KEY, JSON.stringify(items));
  else storage()?.removeItem(KEY);
}

/**
 * Keeps an answer given offline. One entry per record: a later answer replaces an earlier one,
 * so a record is never sent twice, and the bulk upsert makes a resend harmless.
 */
export function enqueueOffline(item: Omit<OutboxItem, 'seq'>): OutboxItem {
  const items = readOutbox().filter((i) => i.record_id !== item.record_id);
  const seq = Math.max(0, ...readOutbox().map((i) => i.seq)) + 1;
  const entry = { ...item, seq };
  writeOutbox([...items, entry]);
  return entry;
}

/** What a flush did: answers the server took, and those it refused for good (with why). */
export interface FlushResult {
  accepted: number;
  refused: BulkFailure[];
}

let flushing: Promise<FlushResult> | undefined;

/**
 * Sends every kept answer through the bulk upsert, 100 a request; an entry leaves the outbox
 * only when the server accepted it (or refused it for good) and no newer answer replaced it.
 * One flush at a time.
 */
export function flushOutbox(send: (items: MyResponsesBulkItem[]) => Promise<MyResponsesBulkResult>): Promise<FlushResult> {
  flushing ??= (async () => {
    const outcome: FlushResult = { accepted: 0, refused: [] };
    const snapshot = readOutbox();
    for (const part of chunk(snapshot, 100)) {
      let result: MyResponsesBulkResult;
      try {
        result = await send(part.map(({ record_id, status, values }) => ({ record_id, status, values })));
      } catch {
        break; // still offline or the server is down: keep everything for the next flush
      }
      const done = new Set(part.filter((_, i) => result.items[i]).map((i) => `${i.record_id}:${i.seq}`));
      part.forEach((item, i) => {
        const answer = result.items[i];
        if (answer?.item) outcome.accepted += 1;
        else if (answer) outcome.refused.push({ recordId: item.record_id, detail: answer.error?.detail });
      });
      writeOutbox(readOutbox().filter((i) => !done.has(`${i.record_id}:${i.seq}`)));
    }
    return outcome;
  })().finally(() => {
    flushing = undefined;
  });
  return flushing;
}
