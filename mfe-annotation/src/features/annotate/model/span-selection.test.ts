import { describe, expect, it } from 'vitest';
import { addSpan, codePointLength, expandToWords, labelColor, labelColors, selectionToSpan, spanText, toCodePointOffset, toUtf16Offset } from './span-selection.js';

const text = 'I 💖 Zürich and 𝒳 maths';

describe('span selection on code points (contract §0)', () => {
  it('converts DOM offsets (UTF-16) to code points and back', () => {
    const utf16 = text.indexOf('Zürich');
    expect(utf16).toBe(5); // the emoji takes two UTF-16 units
    expect(toCodePointOffset(text, utf16)).toBe(4);
    expect(toUtf16Offset(text, 4)).toBe(5);
    expect(codePointLength(text)).toBe([...text].length);
  });

  it('makes a span from a selection, trimming whitespace', () => {
    const start = text.indexOf(' Zürich');
    const span = selectionToSpan(text, start, start + 8, 'city');
    expect(span).toEqual({ start: 4, end: 10, label: 'city' });
    expect(spanText(text, span!)).toBe('Zürich');
    expect(selectionToSpan(text, 1, 2, 'x')).toBeUndefined();
  });

  it('never splits a surrogate pair', () => {
    const at = text.indexOf('𝒳');
    const span = selectionToSpan(text, at + 1, at + 2, 'sym');
    expect(spanText(text, span!)).toBe('𝒳');
  });

  it('without character annotation a selection grows to whole words', () => {
    const start = text.indexOf('ric'); // inside "Zürich"
    const [from, to] = expandToWords(text, start, start + 2);
    expect(spanText(text, selectionToSpan(text, from, to, 'city')!)).toBe('Zürich');
    const across = expandToWords(text, text.indexOf('ich'), text.indexOf('nd') + 1);
    expect(spanText(text, selectionToSpan(text, ...across, 'x')!)).toBe('Zürich and');
  });

  it('replaces overlapping spans unless overlapping is allowed; the same span toggles off', () => {
    const a = { start: 0, end: 5, label: 'a' };
    const b = { start: 3, end: 8, label: 'b' };
    expect(addSpan([a], b, false)).toEqual([b]);
    expect(addSpan([a], b, true)).toEqual([a, b]);
    expect(addSpan([a, b], a, true)).toEqual([b]);
  });

  it('hashes label colours to hsl with 80 % saturation and lightness', () => {
    expect(labelColor('person')).toMatch(/^hsl\(\d{1,3} 80% 80%\)$/);
    expect(labelColor('person')).toBe(labelColor('person'));
  });

  it('gives the labels of one question distinct colours, even when their hashed hues collide', () => {
    const hue = (colour: string) => Number(/^hsl\((\d+)/.exec(colour)![1]);
    const hueGapOf = (a: string, b: string) => Math.min(Math.abs(hue(a) - hue(b)), 360 - Math.abs(hue(a) - hue(b)));
    // Many labels: some hash to nearby hues.
    const values = ['PER', 'ORG', 'LOC', 'MISC', 'DATE', 'TIME', 'MONEY', 'PERCENT', 'GPE', 'EVENT', 'LAW', 'WORK'];
    const colours = labelColors(values);
    const hues = values.map((v) => hue(colours.get(v)!));
    for (let i = 0; i < hues.length; i += 1) {
      for (let j = i + 1; j < hues.length; j += 1) expect(Math.min(Math.abs(hues[i]! - hues[j]!), 360 - Math.abs(hues[i]! - hues[j]!)), `${values[i]} / ${values[j]}`).toBeGreaterThanOrEqual(15); // 180° / 12 labels
    }
    expect(labelColors(values)).toEqual(colours); // stable
    const few = labelColors(['PER', 'ORG', 'LOC']);
    expect(hueGapOf(few.get('PER')!, few.get('ORG')!)).toBeGreaterThanOrEqual(25);
    expect(colours.get('PER')).toBe(labelColor('PER')); // the first keeps its hashed hue
  });
});
