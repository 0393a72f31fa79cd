import { describe, expect, it } from 'vitest';
import { formatMicros, nowTimestamp } from './time.js';

describe('timestamps', () => {
  it('formats microseconds as naive UTC with six fraction digits, across second and day boundaries', () => {
    const at = (iso: string, micros: number) => Date.parse(`${iso}Z`) * 1000 + micros;
    expect(formatMicros(at('2025-03-10T17:42:43', 123_456))).toBe('2025-03-10T17:42:43.123456');
    expect(formatMicros(at('2025-03-10T17:42:43', 999_999))).toBe('2025-03-10T17:42:43.999999');
    expect(formatMicros(at('2025-03-10T17:42:44', 7))).toBe('2025-03-10T17:42:44.000007');
    expect(formatMicros(at('2025-03-10T23:59:59', 500_000))).toBe('2025-03-10T23:59:59.500000');
    expect(formatMicros(at('2025-03-11T00:00:00', 0))).toBe('2025-03-11T00:00:00.000000');
    // Back to an earlier second: the text is that second's, not the last one formatted.
    expect(formatMicros(at('2025-03-10T17:42:43', 1))).toBe('2025-03-10T17:42:43.000001');
  });

  it('gives each call a later timestamp than the one before, also within one millisecond', () => {
    const stamps = Array.from({ length: 5_000 }, () => nowTimestamp());
    for (let i = 1; i < stamps.length; i++) expect(stamps[i] > stamps[i - 1]).toBe(true);
    expect(Math.abs(Date.parse(`${stamps[0]}Z`) - Date.now())).toBeLessThan(60_000);
  });
});
