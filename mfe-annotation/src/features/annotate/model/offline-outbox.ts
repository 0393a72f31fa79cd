import { localOrPageStorage, type MyResponsesBulkItem, type MyResponsesBulkResult } from '@scholia/shared/api';
import { chunk, type BulkFailure } from './bulk-annotation.js';

const KEY_PREFIX = 'scholia.annotation.outbox';

/**
 * Whose answers an outbox holds: one user on one server. Each owner has an outbox of its own, so
 * an answer is only ever sent with its annotator's credentials; a user who signs out keeps theirs
 * until they sign in again in this browser.
 */
export interface OutboxOwner {
  /** Absolute API root, e.g. `https://labels.example.org/api/`. */
  serverUrl: string;
  userId: string;
}

const outboxKey = (owner: OutboxOwner): string => `${KEY_PREFIX}:${owner.serverUrl}:${owner.userId}`;

export interface OutboxItem extends MyResponsesBulkItem {
  datasetId: string;
  /** Distinguishes a newer answer for the same record given while a flush was running. */
  seq: number;
}

/** Where answers wait: `localStorage`, or the page's memory where the browser denies it (never dropped unsaid). */
const storage = localOrPageStorage;

export function readOutbox(owner: OutboxOwner): OutboxItem[] {
  try {
    return JSON.parse(storage().getItem(outboxKey(owner)) ?? '[]') as OutboxItem[];
  } catch {
    return [];
  }
}

function writeOutbox(owner: OutboxOwner, items: OutboxItem[]): void {
  if (items.length) storage().setItem(outboxKey(owner), JSON.stringify(items));
  else storage().removeItem(outboxKey(owner));
}

/**
 * Keeps an answer given offline. One entry per record: a later answer replaces an earlier one,
 * so a record is never sent twice, and the bulk upsert makes a resend harmless.
 */
export function enqueueOffline(owner: OutboxOwner, item: Omit<OutboxItem, 'seq'>): OutboxItem {
  const kept = readOutbox(owner);
  const seq = Math.max(0, ...kept.map((i) => i.seq)) + 1;
  const entry = { ...item, seq };
  writeOutbox(owner, [...kept.filter((i) => i.record_id !== item.record_id), entry]);
  return entry;
}

/** Whether any outbox of this server holds answers, whoever they belong to. */
export function hasKeptAnswers(serverUrl: string): boolean {
  const store = storage();
  const prefix = `${KEY_PREFIX}:${serverUrl}:`;
  for (let i = 0; i < store.length; i += 1) if (store.key(i)?.startsWith(prefix)) return true;
  return false;
}

/** Moves every answer of one outbox into another, in order (a later answer for a record wins). */
export function adoptOutbox(from: OutboxOwner, to: OutboxOwner): void {
  const kept = readOutbox(from);
  if (kept.length === 0 || outboxKey(from) === outboxKey(to)) return;
  for (const { seq: _seq, ...item } of kept) enqueueOffline(to, item);
  writeOutbox(from, []);
}

/** What a flush did: answers the server took, and those it refused for good (with why). */
export interface FlushResult {
  accepted: number;
  refused: BulkFailure[];
}

/** The flush under way for each outbox. */
const flushing = new Map<string, Promise<FlushResult>>();

/**
 * Sends every kept answer through the bulk upsert, 100 a request; an entry leaves the outbox
 * only when the server accepted it (or refused it for good) and no newer answer replaced it.
 * One flush at a time per outbox. `send` must write with `owner`'s credentials: the caller
 * names the owner it just authenticated as.
 */
export function flushOutbox(owner: OutboxOwner, send: (items: MyResponsesBulkItem[]) => Promise<MyResponsesBulkResult>): Promise<FlushResult> {
  const key = outboxKey(owner);
  const running = flushing.get(key);
  if (running) return running;
  const flush = (async () => {
    const outcome: FlushResult = { accepted: 0, refused: [] };
    const snapshot = readOutbox(owner);
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
      writeOutbox(owner, readOutbox(owner).filter((i) => !done.has(`${i.record_id}:${i.seq}`)));
    }
    return outcome;
  })().finally(() => flushing.delete(key));
  flushing.set(key, flush);
  return flush;
}
