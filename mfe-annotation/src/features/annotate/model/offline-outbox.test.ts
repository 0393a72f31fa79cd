import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MyResponsesBulkItem, MyResponsesBulkResult } from '@scholia/shared/api';
import { enqueueOffline, flushOutbox, hasKeptAnswers, readOutbox, type OutboxOwner } from './offline-outbox.js';

const ALICE: OutboxOwner = { serverUrl: 'https://labels.example.org/api/', userId: 'alice' };
const BOB: OutboxOwner = { serverUrl: 'https://labels.example.org/api/', userId: 'bob' };

const answer = (record_id: string, value: string) => ({ datasetId: 'd', record_id, status: 'submitted' as const, values: { q: { value } } });
const accepted = async (items: MyResponsesBulkItem[]): Promise<MyResponsesBulkResult> =>
  ({ items: items.map((i) => ({ item: { id: `resp-${i.record_id}`, status: i.status, values: i.values, updated_at: '' }, error: null })) });

describe('offline outbox: none lost, none sent twice', () => {
  beforeEach(() => localStorage.clear());

  it('keeps one answer per record, the latest', () => {
    enqueueOffline(ALICE, answer('r1', 'a'));
    enqueueOffline(ALICE, answer('r2', 'b'));
    enqueueOffline(ALICE, answer('r1', 'c'));
    expect(readOutbox(ALICE).map((i) => [i.record_id, i.values?.q?.value])).toEqual([['r2', 'b'], ['r1', 'c']]);
  });

  it('sends the kept answers once and empties the outbox', async () => {
    enqueueOffline(ALICE, answer('r1', 'a'));
    enqueueOffline(ALICE, answer('r2', 'b'));
    const send = vi.fn(accepted);
    const [first, second] = await Promise.all([flushOutbox(ALICE, send), flushOutbox(ALICE, send)]);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toEqual([
      { record_id: 'r1', status: 'submitted', values: { q: { value: 'a' } } },
      { record_id: 'r2', status: 'submitted', values: { q: { value: 'b' } } },
    ]);
    expect([first, second]).toEqual([{ accepted: 2, refused: [] }, { accepted: 2, refused: [] }]);
    expect(readOutbox(ALICE)).toEqual([]);
    expect(localStorage.length).toBe(0);
  });

  it('keeps everything while the server cannot be reached', async () => {
    enqueueOffline(ALICE, answer('r1', 'a'));
    await expect(flushOutbox(ALICE, async () => { throw new TypeError('Failed to fetch'); })).resolves.toEqual({ accepted: 0, refused: [] });
    expect(readOutbox(ALICE)).toHaveLength(1);
  });

  it('keeps a newer answer given while the older one was being sent', async () => {
    enqueueOffline(ALICE, answer('r1', 'old'));
    const flushed = flushOutbox(ALICE, async (items) => {
      enqueueOffline(ALICE, answer('r1', 'new'));
      return accepted(items);
    });
    await expect(flushed).resolves.toEqual({ accepted: 1, refused: [] });
    expect(readOutbox(ALICE).map((i) => i.values?.q?.value)).toEqual(['new']);
  });

  it('drops an answer the server refused for good and reports why', async () => {
    enqueueOffline(ALICE, answer('r1', 'a'));
    enqueueOffline(ALICE, answer('gone', 'b'));
    const sent = await flushOutbox(ALICE, async (items) => ({
      items: items.map((i) => (i.record_id === 'gone' ? { item: null, error: { detail: 'Record not found' } } : { item: { id: 'x', status: i.status, values: i.values, updated_at: '' }, error: null })),
    }));
    expect(sent).toEqual({ accepted: 1, refused: [{ recordId: 'gone', detail: 'Record not found' }] });
    expect(readOutbox(ALICE)).toEqual([]);
  });
});

describe('offline outbox: each answer goes out only under its annotator', () => {
  beforeEach(() => localStorage.clear());

  it("never sends one user's kept answers in another user's flush, and keeps them for their return", async () => {
    enqueueOffline(ALICE, answer('r1', 'alice-answer'));
    enqueueOffline(BOB, answer('r2', 'bob-answer'));
    const sentForBob = vi.fn(accepted);
    await expect(flushOutbox(BOB, sentForBob)).resolves.toEqual({ accepted: 1, refused: [] });
    expect(sentForBob.mock.calls.flat(2).map((i) => i.record_id)).toEqual(['r2']);
    expect(readOutbox(BOB)).toEqual([]);
    expect(readOutbox(ALICE).map((i) => i.values?.q?.value)).toEqual(['alice-answer']);
    const sentForAlice = vi.fn(accepted);
    await flushOutbox(ALICE, sentForAlice);
    expect(sentForAlice.mock.calls.flat(2).map((i) => i.record_id)).toEqual(['r1']);
    expect(localStorage.length).toBe(0);
  });

  it('keeps the same user on another server apart', () => {
    const elsewhere = { ...ALICE, serverUrl: 'https://other.example.org/api/' };
    enqueueOffline(ALICE, answer('r1', 'here'));
    expect(readOutbox(elsewhere)).toEqual([]);
  });
});

describe('offline outbox where the browser denies localStorage', () => {
  it('keeps the answers for the page and sends them when the server is back', async () => {
    // A frame of another site whose browser blocks third-party storage.
    vi.spyOn(globalThis, 'localStorage', 'get').mockImplementation(() => { throw new DOMException('Access is denied for this document.', 'SecurityError'); });
    enqueueOffline(ALICE, answer('r1', 'a'));
    expect(readOutbox(ALICE)).toHaveLength(1);
    expect(hasKeptAnswers(ALICE.serverUrl)).toBe(true);
    await expect(flushOutbox(ALICE, async () => { throw new TypeError('Failed to fetch'); })).resolves.toEqual({ accepted: 0, refused: [] });
    const send = vi.fn(accepted);
    await expect(flushOutbox(ALICE, send)).resolves.toEqual({ accepted: 1, refused: [] });
    expect(send.mock.calls[0]![0]).toEqual([{ record_id: 'r1', status: 'submitted', values: { q: { value: 'a' } } }]);
    expect(readOutbox(ALICE)).toEqual([]);
    expect(hasKeptAnswers(ALICE.serverUrl)).toBe(false);
  });
});
