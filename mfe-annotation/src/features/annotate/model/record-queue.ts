import type { AnnotationRecord } from './types.js';

export interface QueueItem {
  record: AnnotationRecord;
  query_score: number | null;
}

/** Reads `limit` records of the current criteria from `offset` (spec §9: offset = page start − 1). */
export type QueueFetcher = (offset: number, limit: number, background: boolean) => Promise<{ items: QueueItem[]; total: number }>;

export interface RecordQueueOptions {
  /** Records fetched per request. */
  batchSize: number;
  /** Buffer more when this many records or fewer are ahead of the current page. */
  bufferSize: number;
  /** false for similarity search: its window is read once, never buffered (spec §4). */
  buffering: boolean;
}

export type EnsureResult = 'ready' | 'back-to-first' | 'empty';

/**
 * How many records before its old page the record last shown is looked for when a queue is read
 * afresh: as many records as may have left the filter meanwhile (answered before a reload).
 */
export const RESUME_LOOKBACK = 200;

/**
 * The focus-mode queue (spec §4): records sorted by page, buffered ahead of the current page,
 * one buffering at a time, buffering failures ignored, back to page 1 when a page is empty.
 *
 * Answering a record can move it out of the filter (a pending record once submitted), which
 * shifts the server's offsets: later fetches subtract the records that left.
 */
export class RecordQueue {
  private readonly pages = new Map<number, QueueItem>();
  private readonly ids = new Set<string>();
  private readonly left = new Set<string>();
  private serverTotal = 0;
  /** Records that had left the filter when the server counted `serverTotal`. */
  private leftWhenCounted = 0;
  private bufferingNow: Promise<void> | undefined;
  /** The last page asked for: a request for an earlier one is paging backward. */
  private visited = 0;
  private pagingBackward = false;

  constructor(private readonly fetcher: QueueFetcher, private readonly options: RecordQueueOptions) {}

  /** Matches of the criteria when the queue was read, counting those answered out of it since. */
  get total(): number {
    // The server's count already misses the records that had left when it counted; those that
    // left since are still in it.
    return this.serverTotal + this.leftWhenCounted;
  }

  get isBuffering(): boolean {
    return this.bufferingNow !== undefined;
  }

  get lastLoadedPage(): number {
    let last = 0;
    for (const page of this.pages.keys()) last = Math.max(last, page);
    return last;
  }

  get(page: number): QueueItem | undefined {
    return this.pages.get(page);
  }

  /** The page a record holds in this queue, if it was read. */
  pageOf(recordId: string): number | undefined {
    for (const [page, item] of this.pages) if (item.record.id === recordId) return page;
    return undefined;
  }

  /** Replaces a record (after a response) in place, keeping its page. */
  update(record: AnnotationRecord): void {
    for (const [page, item] of this.pages) if (item.record.id === record.id) this.pages.set(page, { ...item, record });
  }

  /** Tells the queue whether an answered record still matches the filter (for the offset shift). */
  setLeftFilter(recordId: string, leftFilter: boolean): void {
    if (leftFilter) this.left.add(recordId);
    else this.left.delete(recordId);
  }

  private setServerTotal(total: number, leftWhenCounted: number): void {
    this.serverTotal = total;
    this.leftWhenCounted = leftWhenCounted;
  }

  private offsetOf(page: number): number {
    return Math.max(0, page - 1 - this.left.size);
  }

  private place(from: number, items: QueueItem[]): void {
    let page = from;
    for (const item of items) {
      if (this.ids.has(item.record.id)) continue;
      while (this.pages.has(page)) page += 1;
      this.pages.set(page, item);
      this.ids.add(item.record.id);
      page += 1;
    }
  }

  /**
   * Makes `page` available. An empty page other than the first means "go back to page 1 and
   * reload"; an empty first page means the criteria match nothing.
   */
  async ensure(page: number): Promise<EnsureResult> {
    this.pagingBackward = page < this.visited;
    this.visited = page;
    if (!this.pages.has(page)) {
      const backward = this.pages.size > 0 && page < this.lastLoadedPage;
      const limit = backward ? 1 : this.options.batchSize;
      const offset = backward ? page - 1 : this.offsetOf(page);
      const leftBefore = this.left.size;
      const result = await this.fetcher(offset, limit, false);
      this.setServerTotal(result.total, leftBefore);
      this.place(page, result.items);
    }
    if (this.pages.has(page)) return 'ready';
    return page === 1 ? 'empty' : 'back-to-first';
  }

  /**
   * Opens a fresh queue where the annotator was, by record rather than by offset: records answered
   * before a reload or a reconnect have left the filter, so the old page now points past records
   * still to do. Reads from up to RESUME_LOOKBACK records before `page` to a batch past it and
   * returns the page of the first of `anchor` (the record last shown, then those that followed it)
   * still in the queue, or none when none is (the caller then goes by `page`).
   */
  async resume(page: number, anchor: readonly string[]): Promise<number | undefined> {
    const offset = Math.max(0, page - 1 - RESUME_LOOKBACK);
    const result = await this.fetcher(offset, Math.min(1000, page - 1 - offset + this.options.batchSize), false);
    this.setServerTotal(result.total, this.left.size);
    this.place(offset + 1, result.items);
    for (const id of anchor) {
      const found = this.pageOf(id);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /**
   * Buffers the next batch when the total is not reached and at most `bufferSize` records are
   * ahead of `currentPage`. One buffering at a time; failures are ignored; nothing after paging
   * backward (spec §4).
   */
  maybeBuffer(currentPage: number): Promise<void> | undefined {
    if (!this.options.buffering || this.bufferingNow || this.pagingBackward) return undefined;
    const last = this.lastLoadedPage;
    if (last >= this.total) return undefined;
    if (last - currentPage > this.options.bufferSize) return undefined;
    const from = last + 1;
    const leftBefore = this.left.size;
    this.bufferingNow = this.fetcher(this.offsetOf(from), this.options.batchSize, true)
      .then((result) => {
        this.setServerTotal(result.total, leftBefore);
        this.place(from, result.items);
      })
      .catch(() => undefined)
      .finally(() => {
        this.bufferingNow = undefined;
      });
    return this.bufferingNow;
  }
}
