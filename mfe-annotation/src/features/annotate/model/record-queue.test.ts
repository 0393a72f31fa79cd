import { describe, expect, it, vi } from 'vitest';
import { RecordQueue, type QueueFetcher, type QueueItem } from './record-queue.js';

const item = (n: number): QueueItem => ({ record: { id: `r${n}`, fields: {}, status: 'pending', dataset_id: 'd', inserted_at: '', updated_at: '' }, query_score: null });

/** A server with `total` records r1..rN; `gone` ids have left the filter server-side. */
function server(total: number, gone = new Set<string>()) {
  const fetcher = vi.fn<QueueFetcher>(async (offset, limit) => {
    const all = Array.from({ length: total }, (_, i) => item(i + 1)).filter((x) => !gone.has(x.record.id));
    return { items: all.slice(offset, offset + limit), total: all.length };
  });
  return fetcher;
}

describe('record queue (spec §4)', () => {
  it('loads the requested page and buffers ahead when few records are ahead', async () => {
    const fetcher = server(30);
    const queue = new RecordQueue(fetcher, { batchSize: 10, bufferSize: 5, buffering: true });
    expect(await queue.ensure(1)).toBe('ready');
    expect(queue.maybeBuffer(1)).toBeUndefined(); // 9 ahead > 5
    await queue.maybeBuffer(5); // 5 ahead ≤ 5
    expect(fetcher).toHaveBeenLastCalledWith(10, 10, expect.any(Boolean));
    expect(queue.get(20)?.record.id).toBe('r20');
  });

  it('buffers one batch at a time', async () => {
    const fetcher = server(50);
    const queue = new RecordQueue(fetcher, { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(1);
    const first = queue.maybeBuffer(8);
    expect(queue.maybeBuffer(8)).toBeUndefined();
    await first;
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('stops buffering once the total is reached', async () => {
    const fetcher = server(8);
    const queue = new RecordQueue(fetcher, { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(1);
    expect(queue.maybeBuffer(7)).toBeUndefined();
  });

  it('ignores buffering failures', async () => {
    const fetcher = server(30);
    const queue = new RecordQueue(fetcher, { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(1);
    fetcher.mockRejectedValueOnce(new Error('down'));
    await expect(queue.maybeBuffer(9)).resolves.toBeUndefined();
    expect(queue.isBuffering).toBe(false);
    await queue.maybeBuffer(9);
    expect(queue.get(11)?.record.id).toBe('r11');
  });

  it('goes back to page 1 when a later page is empty, and reports an empty first page', async () => {
    const queue = new RecordQueue(server(3), { batchSize: 10, bufferSize: 5, buffering: true });
    expect(await queue.ensure(7)).toBe('back-to-first');
    expect(await new RecordQueue(server(0), { batchSize: 10, bufferSize: 5, buffering: true }).ensure(1)).toBe('empty');
  });

  it('does not buffer similarity results', async () => {
    const fetcher = server(30);
    const queue = new RecordQueue(fetcher, { batchSize: 50, bufferSize: 5, buffering: false });
    await queue.ensure(1);
    expect(queue.maybeBuffer(29)).toBeUndefined();
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('paging backward reads only that page, without buffering', async () => {
    const fetcher = server(30);
    const queue = new RecordQueue(fetcher, { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(15);
    await queue.ensure(3);
    expect(fetcher).toHaveBeenLastCalledWith(2, 1, expect.any(Boolean));
    expect(queue.get(3)?.record.id).toBe('r3');
  });

  it('does not buffer after paging backward, and does again going forward', async () => {
    const fetcher = server(30);
    const queue = new RecordQueue(fetcher, { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(1);
    await queue.ensure(8);
    await queue.ensure(7); // 3 ahead: forward this would buffer
    expect(queue.maybeBuffer(7)).toBeUndefined();
    await queue.ensure(8);
    await queue.maybeBuffer(8);
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(queue.get(11)?.record.id).toBe('r11');
  });

  it('shifts offsets for records answered out of the filter', async () => {
    const gone = new Set<string>();
    const fetcher = server(20, gone);
    const queue = new RecordQueue(fetcher, { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(1);
    for (const id of ['r1', 'r2', 'r3']) {
      gone.add(id);
      queue.setLeftFilter(id, true);
    }
    await queue.maybeBuffer(6);
    expect(fetcher).toHaveBeenLastCalledWith(7, 10, expect.any(Boolean));
    expect(queue.get(11)?.record.id).toBe('r11');
    expect(queue.total).toBe(20);
  });

  it('keeps the total exact between answering a record and the next fetch', async () => {
    const gone = new Set<string>();
    const queue = new RecordQueue(server(3, gone), { batchSize: 10, bufferSize: 5, buffering: true });
    await queue.ensure(1);
    expect(queue.total).toBe(3);
    gone.add('r1');
    queue.setLeftFilter('r1', true);
    expect(queue.total).toBe(3);
  });

  it('reopens on the record last shown, by id, after records before it left the filter', async () => {
    // r1..r3 were submitted before a reload; the annotator was on page 4 showing r4.
    const queue = new RecordQueue(server(10, new Set(['r1', 'r2', 'r3'])), { batchSize: 10, bufferSize: 5, buffering: true });
    expect(await queue.resume(4, ['r4', 'r5', 'r6'])).toBe(1);
    expect(queue.get(1)?.record.id).toBe('r4');
    // The record last shown left too (answered in another tab): the first one after it.
    const other = new RecordQueue(server(10, new Set(['r1', 'r2', 'r3', 'r4'])), { batchSize: 10, bufferSize: 5, buffering: true });
    expect(await other.resume(4, ['r4', 'r5', 'r6'])).toBe(1);
    expect(other.get(1)?.record.id).toBe('r5');
    // None of them is left: the caller goes by the page.
    const none = new RecordQueue(server(10), { batchSize: 10, bufferSize: 5, buffering: true });
    expect(await none.resume(4, ['x'])).toBeUndefined();
    expect(none.get(4)?.record.id).toBe('r4');
  });
});
