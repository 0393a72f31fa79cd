import { describe, expect, it, vi } from 'vitest';
import { RecordQueue, type QueueFetcher, type QueueItem } from '../model/record-queue.js';
import { restoreUndone } from './focus-view.js';

const item = (n: number): QueueItem => ({ record: { id: `r${n}`, fields: {}, status: 'pending', dataset_id: 'd', inserted_at: '', updated_at: '' }, query_score: null });
const submitted = { id: 'resp3', status: 'submitted' as const, values: { q: { value: 'a' } }, updated_at: '' };

describe('undo in focus mode', () => {
  it('puts the undone answer back on its record, keeps its page and the count of records', async () => {
    const fetcher = vi.fn<QueueFetcher>(async (offset, limit) => ({ items: Array.from({ length: 10 }, (_, i) => item(i + 1)).slice(offset, offset + limit), total: 10 }));
    const queue = new RecordQueue(fetcher, { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(1);
    // Record 3 submitted from the pending queue: it left the filter, the screen moved to record 4.
    queue.update({ ...queue.get(3)!.record, responses: [submitted] });
    queue.setLeftFilter('r3', true);
    const entry = { datasetId: 'd', recordId: 'r3', responseId: 'resp3', previous: null };
    expect(restoreUndone(queue, { entry, response: undefined }, 'pending')).toBe(3);
    expect(queue.get(3)?.record.responses).toEqual([]);
    expect(queue.total).toBe(10);
    // Back in the filter: the next read starts where the server's list continues.
    await queue.ensure(11);
    expect(fetcher).toHaveBeenLastCalledWith(10, 10, false);
  });

  it('restores an earlier draft as the record’s response', async () => {
    const queue = new RecordQueue(async () => ({ items: [item(1), item(2)], total: 2 }), { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(1);
    const draft = { id: 'resp2', status: 'draft' as const, values: { q: { value: 'b' } }, updated_at: '' };
    const entry = { datasetId: 'd', recordId: 'r2', responseId: 'resp2', previous: { status: 'draft' as const, values: draft.values } };
    expect(restoreUndone(queue, { entry, response: draft }, 'pending')).toBe(2);
    expect(queue.get(2)?.record.responses).toEqual([draft]);
  });

  it('finds no page for a record the current queue never read', async () => {
    const queue = new RecordQueue(async () => ({ items: [item(1)], total: 1 }), { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(1);
    expect(restoreUndone(queue, { entry: { datasetId: 'd', recordId: 'elsewhere', responseId: undefined, previous: null }, response: undefined }, 'pending')).toBeUndefined();
  });
});
