import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random.js';
import { textWords } from './text-tokenizer.js';

describe('text words (the standard analyzer)', () => {
  it.each([
    ["can't stop", ["can't", 'stop']],
    ['my_term', ['my_term']],
    ["3.14 1,000 a1b2 1'000 1;2", ['3.14', '1,000', 'a1b2', "1'000", '1;2']],
    ['a:b a.b U.S.A. a_.b a;b', ['a:b', 'a.b', 'u.s.a', 'a_', 'b', 'a', 'b']],
    ['___ _foo_ __9', ['_foo_', '__9']],
    ['x--y a..b a.b.c 1.2.3', ['x', 'y', 'a', 'b', 'a.b.c', '1.2.3']],
    ['日本語の文章です カタカナ', ['日', '本', '語', 'の', '文', '章', 'で', 'す', 'カタカナ']],
    ['ﬁ Straße ÉCOLE Café', ['ﬁ', 'straße', 'école', 'café']],
    ['🙂 emoji', ['🙂', 'emoji']],
    ['ΟΔΟΣ İstanbul', ['οδοσ', 'istanbul']],
    ['ไทยภาษา', ['ไทยภาษา']],
    ['한국어 텍스트', ['한국어', '텍스트']],
  ])('%j', (text, words) => {
    expect(textWords(text)).toEqual(words);
  });

  it('cuts a word longer than 255 characters every 255', () => {
    expect(textWords('a'.repeat(600)).map((word) => word.length)).toEqual([255, 255, 90]);
  });

  // The fast paths (ASCII; Latin, Greek and Cyrillic) against ICU's word boundaries.
  it.each([
    ['ASCII', [..."aZ09_.,;:'\"- !?/()\t\n"]],
    ['European', [..."aZé09_.,;:'- !\u0301\u0308ßÉøΣσςΩжЖ\u00a0\u00b7\u2019\u2018\u2014\u00ab«»¿"]],
  ])('cuts %s text as Unicode word boundaries do', (_, alphabet) => {
    const random = seededRandom(29);
    const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const expected = [...segmenter.segment(text)].filter((s) => s.isWordLike && !/^_+$/.test(s.segment)).map((s) => s.segment.replace(/Σ/g, 'σ').toLowerCase());
      expect(textWords(text), JSON.stringify(text)).toEqual(expected);
    }
  });

  it('cuts long text that leaves the fast paths in linear time (no regular expression backtracking)', () => {
    // English words and then an emoji: the fast-path test fails only at the end. Run apart, so
    // a regression fails on its deadline instead of hanging the test run.
    const tokenizer = fileURLToPath(new URL('./text-tokenizer.ts', import.meta.url));
    const script = `import(${JSON.stringify(tokenizer)}).then(({ textWords }) => {
      const words = textWords('the quick brown fox jumps over the lazy dog '.repeat(200) + '\u{1F642} 中文 καλημέρα');
      process.stdout.write(String(words.length));
    })`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { timeout: 20_000, encoding: 'utf8' });
    expect(run.error, 'the tokenizer did not finish within 20 s').toBeUndefined();
    expect(run.stdout).toBe(String(9 * 200 + 4));
  });
});
