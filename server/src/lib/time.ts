/**
 * Timestamps are stored as fixed-width naive UTC strings with microseconds
 * (`2025-03-10T17:42:43.123456`) so they sort as text in every SQL dialect.
 * Microseconds come from a per-process counter: two writes in one millisecond still get
 * distinct, increasing values, which keeps `inserted_at` a usable insertion order.
 */
let lastMicros = 0;

export function nowTimestamp(): string {
  let micros = Date.now() * 1000;
  if (micros <= lastMicros) micros = lastMicros + 1;
  lastMicros = micros;
  return formatMicros(micros);
}

/** The second formatted last (`2025-03-10T17:42:43`): a bulk write stamps thousands of rows within one. */
let cachedSecond = Number.NaN;
let cachedSecondText = '';

export function formatMicros(micros: number): string {
  const second = Math.floor(micros / 1_000_000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedSecondText = new Date(second * 1000).toISOString().slice(0, 19); // 2025-03-10T17:42:43
  }
  return `${cachedSecondText}.${String(micros % 1_000_000).padStart(6, '0')}`;
}

/** Contract §0: Python's isoformat drops the fraction when it is zero. */
export function presentTimestamp(stored: string): string {
  return stored.endsWith('.000000') ? stored.slice(0, 19) : stored;
}

/**
 * Parse a client-sent timestamp (naive ISO = UTC, or with an offset) into the stored form,
 * or return undefined when it is not a date.
 */
export function normalizeTimestamp(input: string): string | undefined {
  const naive = /^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(input) ? `${input}${input.includes('T') ? '' : 'T00:00:00'}Z` : input;
  const fractionMatch = /T\d{2}:\d{2}:\d{2}\.(\d+)/.exec(input);
  const date = new Date(naive);
  if (Number.isNaN(date.getTime())) return undefined;
  const base = date.toISOString().slice(0, 19);
  const fraction = (fractionMatch?.[1] ?? '').padEnd(6, '0').slice(0, 6);
  return `${base}.${fraction}`;
}
