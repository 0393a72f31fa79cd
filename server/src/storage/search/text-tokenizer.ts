/**
 * Words of a text as the reference engine's standard analyzer makes them (Unicode word boundaries,
 * UAX #29, then lower case): `my_term`, `can't`, `3.14`, `1,000`, `a1b2` and `u.s.a` are one word
 * each; accents stay (`café` is not `cafe`). Both text indexes store these words and every query
 * is cut by the same function, so SQLite and PostgreSQL see the same words.
 *
 * The boundaries come from ICU (Intl.Segmenter), adjusted where the standard tokenizer differs:
 * Han and Hiragana are one word per character, Thai/Lao/Khmer/Myanmar runs stay whole (ICU cuts
 * them with a dictionary), emoji are words, runs of `_` alone are not, and a word longer than
 * 255 characters is cut every 255 (the tokenizer's maximum token length).
 */
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

const MAX_WORD_LENGTH = 255;
const ASCII = /^[\x00-\x7f]*$/;
/**
 * UAX #29 within ASCII: letters, digits and `_` join; `.`, `'` and `:` join two letters; `.`,
 * `'`, `,` and `;` join two digits.
 */
const ASCII_WORD = /[a-z0-9_]+(?:(?:(?<=[a-z])[.':](?=[a-z])|(?<=[0-9])[.',;](?=[0-9]))[a-z0-9_]+)*/g;
const ONLY_UNDERSCORES = /^_+$/;
const ONE_PER_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}]/u;
const WHOLE_RUN = /^[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const EMOJI = /\p{Extended_Pictographic}/u;

/** The words of a text, in order. */
export function textWords(text: string): string[] {
  if (ASCII.test(text)) return limitLength((text.toLowerCase().match(ASCII_WORD) ?? []).filter((word) => !ONLY_UNDERSCORES.test(word)));
  const words: string[] = [];
  let runEnd = -1;
  for (const { segment, index, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) {
      if (EMOJI.test(segment)) words.push(segment);
      continue;
    }
    if (ONLY_UNDERSCORES.test(segment)) continue;
    const word = segment.toLowerCase();
    if (WHOLE_RUN.test(word) && index === runEnd && words.length > 0) words[words.length - 1] += word;
    else if (ONE_PER_CHARACTER.test(word)) words.push(...splitCharacters(word));
    else words.push(word);
    runEnd = WHOLE_RUN.test(word) ? index + segment.length : -1;
  }
  return limitLength(words);
}

/** A query's prefix or fuzzy term as the analyzer's normaliser leaves it: lower case, not cut into words. */
export function normalizeWord(text: string): string {
  return text.toLowerCase();
}

/** Han/Hiragana characters one by one; other letters in the same segment stay together. */
function splitCharacters(word: string): string[] {
  const out: string[] = [];
  let rest = '';
  for (const character of word) {
    if (ONE_PER_CHARACTER.test(character)) {
      if (rest) out.push(rest);
      rest = '';
      out.push(character);
    } else rest += character;
  }
  if (rest) out.push(rest);
  return out;
}

function limitLength(words: string[]): string[] {
  if (words.every((word) => word.length <= MAX_WORD_LENGTH)) return words;
  return words.flatMap((word) => {
    if (word.length <= MAX_WORD_LENGTH) return [word];
    const pieces: string[] = [];
    for (let start = 0; start < word.length; start += MAX_WORD_LENGTH) pieces.push(word.slice(start, start + MAX_WORD_LENGTH));
    return pieces;
  });
}
