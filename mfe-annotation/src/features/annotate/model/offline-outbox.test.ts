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
    expect([first, second]).toEqual([{ accepted: 2, refused: [] }, { accepted: 2, refused: [] }]);
    expect(readOutbox()).toEqual([]);
    expect(localStorage.length).toBe(0);
  });

  it('keeps everything while the server cannot be reached', async () => {
    enqueueOffline(answer('r1', 'a'));
    await expect(flushOutbox(async () => { throw new TypeError('Failed to fetch'); })).resolves.toEqual({ accepted: 0, refused: [] });
    expect(readOutbox()).toHaveLength(1);
  });

  it('keeps a newer answer given while the older one was being sent', async () => {
    enqueueOffline(answer('r1', 'old'));
    const flushed = flushOutbox(async (items) => {
      enqueueOffline(answer('r1', 'new'));
      return accepted(items);
    });
    await expect(flushed).resolves.toEqual({ accepted: 1, refused: [] });
    expect(readOutbox().map((i) => i.values?.q?.value)).toEqual(['new']);
  });

  it('drops an answer the server refused for good and reports why', async () => {
    enqueueOffline(answer('r1', 'a'));
    enqueueOffline(answer('gone', 'b'));
    const sent = await flushOutbox(async (items) => ({
      items: items.map((i) => (i.record_id === 'gone' ? { item: null, error: { detail: 'Record not found' } } : { item: { id: 'x', status: i.status, values: i.values, updated_at: '' }, error: null })),
    }));
    expect(sent).toEqual({ accepted: 1, refused: [{ recordId: 'gone', detail: 'Record not found' }] });
    expect(readOutbox()).toEqual([]);
  });
});
