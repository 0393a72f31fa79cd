import { describe, expect, it, vi } from 'vitest';
import type { MyResponsesBulkItem } from '@scholia/shared/api';
import { chunk, describeFailure, runBulkAnnotation } from './bulk-annotation.js';

const items = (n: number): MyResponsesBulkItem[] => Array.from({ length: n }, (_, i) => ({ record_id: `r${i + 1}`, status: 'submitted' as const, values: { q: { value: 'a' } } }));

describe('bulk annotation (spec §4, §9)', () => {
  it('chunks by 10', () => {
    expect(chunk(items(25)).map((c) => c.length)).toEqual([10, 10, 5]);
  });

  it('reports progress after each chunk and per-record errors', async () => {
    const send = vi.fn(async (part: MyResponsesBulkItem[]) => ({
      items: part.map((i) => (i.record_id === 'r13' ? { item: null, error: { detail: 'Record not found' } } : { item: { id: 'x', status: 'submitted' as const, values: null, updated_at: '' }, error: null })),
    }));
    const progress: number[] = [];
    const outcome = await runBulkAnnotation(items(25), send, (p) => progress.push(p));
    expect(send).toHaveBeenCalledTimes(3);
    expect(progress).toEqual([40, 80, 100]);
    expect(outcome.ok).toBe(false);
    expect(outcome.succeeded).toHaveLength(24);
    expect(outcome.failed).toEqual([{ recordId: 'r13', detail: 'Record not found' }]);
  });

  it('marks a whole chunk failed when its request fails, and goes on', async () => {
    const send = vi.fn()
      .mockRejectedValueOnce(new Error('boom'))
      .mockImplementation(async (part: unknown[]) => ({ items: part.map(() => ({ item: { id: 'x' }, error: null })) }));
    const outcome = await runBulkAnnotation(items(12), send);
    expect(outcome.failed).toHaveLength(10);
    expect(outcome.succeeded).toEqual(['r11', 'r12']);
  });

  it('leaves the reason out when the server gives none (the screen words it in the user’s language)', async () => {
    const send = vi.fn(async (part: MyResponsesBulkItem[]) => ({ items: part.map(() => ({ item: null, error: null })) }));
    const outcome = await runBulkAnnotation(items(2), send);
    expect(outcome.failed).toEqual([{ recordId: 'r1', detail: undefined }, { recordId: 'r2', detail: undefined }]);
  });

  it('words a failure with the server reason, or says there was none', () => {
    const t = (key: string, options: Record<string, unknown>) => `${key} ${JSON.stringify(options)}`;
    expect(describeFailure({ recordId: 'r1', detail: 'Record not found' }, t)).toBe('bulk.failed {"id":"r1","detail":"Record not found"}');
    expect(describeFailure({ recordId: 'r2' }, t)).toBe('bulk.failedNoReason {"id":"r2"}');
  });
});
