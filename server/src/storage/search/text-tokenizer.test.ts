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
    ['ไทยภาษา', ['ไทยภาษา']],
    ['한국어 텍스트', ['한국어', '텍스트']],
  ])('%j', (text, words) => {
    expect(textWords(text)).toEqual(words);
  });

  it('cuts a word longer than 255 characters every 255', () => {
    expect(textWords('a'.repeat(600)).map((word) => word.length)).toEqual([255, 255, 90]);
  });

  it('cuts ASCII text as Unicode word boundaries do', () => {
    const random = seededRandom(29);
    const alphabet = "aZ09_.,;:'\"- !?/()\t\n";
    const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
    for (let n = 0; n < 500; n++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const expected = [...segmenter.segment(text)].filter((s) => s.isWordLike && !/^_+$/.test(s.segment)).map((s) => s.segment.toLowerCase());
      expect(textWords(text), JSON.stringify(text)).toEqual(expected);
    }
  });
});
