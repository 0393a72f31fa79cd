import nativeMemory from '@scholia/memory-release';

/**
 * Heavy work (a bulk upload, a Hub import, building an in-memory copy) leaves freed C memory
 * (SQLite's buffers, HTTP chunks, worker threads' allocations) resident in glibc's heaps as holes
 * between live blocks: at a million records that was ~60 MiB the server kept for nothing. Once
 * the server has been quiet for a moment those pages go back to the system. The call walks every
 * heap (tens of ms at most), so it waits for a pause instead of running after each request.
 */

export interface MemoryRelease {
  /** Asks for a release once no heavy work has been reported for `quietMs` (at most `maxDelayMs` after the first ask). */
  soon(): void;
}

export function createMemoryRelease(release: () => void, timing: { quietMs: number; maxDelayMs: number }): MemoryRelease {
  let timer: NodeJS.Timeout | undefined;
  let firstAsk = 0;
  const run = () => {
    timer = undefined;
    release();
  };
  return {
    soon() {
      const now = Date.now();
      if (timer) clearTimeout(timer);
      else firstAsk = now;
      timer = setTimeout(run, Math.min(timing.quietMs, Math.max(0, firstAsk + timing.maxDelayMs - now)));
      timer.unref();
    },
  };
}

function processRelease(): MemoryRelease {
  const addon = nativeMemory;
  if (!addon) return { soon() {} };
  // With --expose-gc (`npm start`), a full collection first frees the garbage holding C memory:
  // the replaced copy's WebAssembly memory and typed arrays, the Buffers of rows read to build it.
  const collect = (globalThis as { gc?: () => void }).gc;
  return createMemoryRelease(
    () => {
      collect?.();
      addon.releaseFreeMemory();
    },
    { quietMs: 2_000, maxDelayMs: 30_000 },
  );
}

/** The process's release; a no-op where the addon could not be built or the C library has no trim. */
export const memoryRelease: MemoryRelease = processRelease();
