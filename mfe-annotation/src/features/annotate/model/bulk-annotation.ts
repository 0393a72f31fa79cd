import type { MyResponsesBulkItem, MyResponsesBulkResult } from '@scholia/shared/api';

/** Spec §9: bulk annotation sends 10 records per request; select-all reads at most 1000. */
export const BULK_CHUNK_SIZE = 10;
export const SELECT_ALL_LIMIT = 1000;

export function chunk<T>(items: readonly T[], size = BULK_CHUNK_SIZE): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export interface BulkFailure {
  recordId: string;
  /** The server's reason; absent when it gave none. */
  detail?: string;
}

export interface BulkOutcome {
  succeeded: string[];
  failed: BulkFailure[];
  /** Overall success needs every chunk (and item) to succeed (spec §4). */
  ok: boolean;
}

/** One failed record as the screens word it: with the server's reason, or saying it gave none. */
export function describeFailure(failure: BulkFailure, t: (key: string, options: Record<string, unknown>) => string): string {
  return failure.detail
    ? t('bulk.failed', { id: failure.recordId, detail: failure.detail })
    : t('bulk.failedNoReason', { id: failure.recordId });
}

/**
 * Sends the items in chunks of 10, reporting the percentage done after each chunk. A failed
 * chunk marks its records failed with the request's message; the rest still go.
 */
export async function runBulkAnnotation(
  items: MyResponsesBulkItem[],
  send: (chunk: MyResponsesBulkItem[]) => Promise<MyResponsesBulkResult>,
  onProgress: (percent: number) => void = () => {},
): Promise<BulkOutcome> {
  const succeeded: string[] = [];
  const failed: BulkFailure[] = [];
  const chunks = chunk(items);
  let done = 0;
  for (const part of chunks) {
    try {
      const result = await send(part);
      part.forEach((item, index) => {
        const outcome = result.items[index];
        if (outcome?.item && !outcome.error) succeeded.push(item.record_id);
        else failed.push({ recordId: item.record_id, detail: outcome?.error?.detail });
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      for (const item of part) failed.push({ recordId: item.record_id, detail });
    }
    done += part.length;
    onProgress(Math.round((done / items.length) * 100));
  }
  return { succeeded, failed, ok: failed.length === 0 };
}
