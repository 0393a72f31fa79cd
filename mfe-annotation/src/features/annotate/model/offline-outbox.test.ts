import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MyResponsesBulkItem, MyResponsesBulkResult } from '@scholia/shared/api';
import { enqueueOffline, flushOutbox, readOutbox } from './offline-outbox.js';

const answer = (record_id: string, value: string) => ({ datasetId: 'd', record_id, status: 'submitted' as const, values: { q: { value } } });
const accepted = async (items: MyResponsesBulkItem[]): Promise<MyResponsesBulkResult> =>
  ({ items: items.map((i) => ({ item: { id: `resp-${i.record_id}`, status: i.status, values: i.values, updated_at: '' }, error: null })) });

describe('offline outbox: none lost, none sent twice', () => {
  beforeEach(() => localStorage.clear());

  it('keeps one answer per record, the latest', () => {
    enqueueOffline(answer('r1', 'a'));
    enqueueOffline(answer('r2', 'b'));
    enqueueOffline(answer('r1', 'c'));
    expect(readOutbox().map((i) => [i.record_id, i.values?.q?.value])).toEqual([['r2', 'b'], ['r1', 'c']]);
  });

  it('sends the kept answers once and empties the outbox', async () => {
    enqueueOffline(answer('r1', 'a'));
    enqueueOffline(answer('r2', 'b'));
    const send = vi.fn(accepted);
    const [first, second] = await Promise.all([flushOutbox(send), flushOutbox(send)]);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toEqual([
      { record_id: 'r1', status: 'submitted', values: { q: { value: 'a' } } },
      { record_id: 'r2', status: 'submitted', values: { q: { value: 'b' } } },
    ]);
    expect([first, second]).toEqual([2, 2]);
    expect(readOutbox()).toEqual([]);
    expect(localStorage.length).toBe(0);
  });

  it('keeps everything while the server cannot be reached', async () => {
    enqueueOffline(answer('r1', 'a'));
    await expect(flushOutbox(async () => { throw new TypeError('Failed to fetch'); })).resolves.toBe(0);
    expect(readOutbox()).toHaveLength(1);
  });

  it('keeps a newer answer given while the older one was being sent', async () => {
    enqueueOffline(answer('r1', 'old'));
    const flushed = flushOutbox(async (items) => {
      enqueueOffline(answer('r1', 'new'));
      return accepted(items);
    });
    await expect(flushed).resolves.toBe(1);
    expect(readOutbox().map((i) => i.values?.q?.value)).toEqual(['new']);
  });

  it('drops an answer the server refused for good, counting only accepted ones', async () => {
    enqueueOffline(answer('r1', 'a'));
    enqueueOffline(answer('gone', 'b'));
    const sent = await flushOutbox(async (items) => ({
      items: items.map((i) => (i.record_id === 'gone' ? { item: null, error: { detail: 'Record not found' } } : { item: { id: 'x', status: i.status, values: i.values, updated_at: '' }, error: null })),
    }));
    expect(sent).toBe(1);
    expect(readOutbox()).toEqual([]);
  });
});
