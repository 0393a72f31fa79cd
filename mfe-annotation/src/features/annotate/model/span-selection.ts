import type { SpanItem } from './types.js';

/** Code points of a string (contract §0: span offsets count code points, not UTF-16 units). */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/** UTF-16 offset (what DOM ranges give) → code-point offset. */
export function toCodePointOffset(text: string, utf16Offset: number): number {
  return codePointLength(text.slice(0, utf16Offset));
}

/** Code-point offset → UTF-16 offset (to build DOM ranges for highlights). */
export function toUtf16Offset(text: string, codePointOffset: number): number {
  let units = 0;
  let points = 0;
  for (const char of text) {
    if (points === codePointOffset) break;
    units += char.length;
    points += 1;
  }
  return units;
}

/**
 * A selection [start, end) in UTF-16 units → a span in code points, trimmed of surrounding
 * whitespace; undefined when nothing but whitespace was selected.
 */
export function selectionToSpan(text: string, utf16Start: number, utf16End: number, label: string): SpanItem | undefined {
  let start = Math.min(utf16Start, utf16End);
  let end = Math.max(utf16Start, utf16End);
  while (start < end && /\s/.test(text[start]!)) start += 1;
  while (end > start && /\s/.test(text[end - 1]!)) end -= 1;
  if (end <= start) return undefined;
  // Never split a surrogate pair.
  if (start > 0 && /[\uDC00-\uDFFF]/.test(text[start]!)) start -= 1;
  if (end < text.length && /[\uDC00-\uDFFF]/.test(text[end]!)) end += 1;
  return { start: toCodePointOffset(text, start), end: toCodePointOffset(text, end), label };
}

/** Word boundaries around a selection, for datasets that do not allow character annotation. */
export function expandToWords(text: string, utf16Start: number, utf16End: number): [number, number] {
  let start = utf16Start;
  let end = utf16End;
  while (start > 0 && /[\p{L}\p{N}_]/u.test(text[start - 1]!)) start -= 1;
  while (end < text.length && /[\p{L}\p{N}_]/u.test(text[end]!)) end += 1;
  return [start, end];
}

export const overlaps = (a: SpanItem, b: SpanItem) => a.start < b.end && a.end > b.start;

/**
 * Adds a span: the same range and label toggles it off; without `allowOverlapping` the new
 * span replaces the spans it overlaps (contract §3.7 forbids overlaps then). Sorted by start.
 */
export function addSpan(spans: SpanItem[], span: SpanItem, allowOverlapping: boolean): SpanItem[] {
  const same = spans.find((s) => s.start === span.start && s.end === span.end && s.label === span.label);
  if (same) return spans.filter((s) => s !== same);
  const kept = allowOverlapping ? spans : spans.filter((s) => !overlaps(s, span));
  return [...kept, span].sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The text of a span, by code points. */
export function spanText(text: string, span: SpanItem): string {
  return [...text].slice(span.start, span.end).join('');
}

/** Hue 0..359 hashed from an option value (spec §3, §9). */
function hashedHue(value: string): number {
  let hash = 0;
  for (const char of value) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return hash % 360;
}

/** Option colour: hashed hue, saturation and lightness 80 % (spec §3, §9). */
export function labelColor(value: string, saturation = 80, lightness = 80): string {
  return `hsl(${hashedHue(value)} ${saturation}% ${lightness}%)`;
}

/** Hues closer than this look alike at 80 % lightness. */
const MIN_HUE_GAP = 25;

const hueGap = (a: number, b: number) => Math.min(Math.abs(a - b), 360 - Math.abs(a - b));

/**
 * Colours of a question's options: each its hashed hue, unless that is too close to an earlier
 * option's (in option order); then the hue farthest from all earlier ones. So two labels of one
 * question never share a colour: the gap is at least 25° (180° / options when there are many).
 */
export function labelColors(values: string[], saturation = 80, lightness = 80): Map<string, string> {
  const minGap = Math.min(MIN_HUE_GAP, 180 / Math.max(1, values.length));
  const taken: number[] = [];
  const colours = new Map<string, string>();
  const nearest = (hue: number) => Math.min(360, ...taken.map((other) => hueGap(hue, other)));
  for (const value of values) {
    let hue = hashedHue(value);
    if (nearest(hue) < minGap) {
      const start = hue;
      for (let offset = 1; offset < 360; offset += 1) {
        const candidate = (start + offset) % 360;
        if (nearest(candidate) > nearest(hue)) hue = candidate;
      }
    }
    taken.push(hue);
    colours.set(value, `hsl(${hue} ${saturation}% ${lightness}%)`);
  }
  return colours;
}
