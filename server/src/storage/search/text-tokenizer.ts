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
/**
 * Text in Latin, Greek or Cyrillic letters, combining marks, ASCII and common punctuation whose
 * word-boundary classes are known (`’` and `‘` join like `'`, `·` like `:`; the others separate):
 * cut by EUROPEAN_WORD at ~0.3 µs a word, where ICU takes ~10.
 */
// The two branches must not both match a character (ASCII letters are Latin too): with an overlap,
// a text that fails at its end (an emoji after English words) backtracks 2^n ways and never ends.
const EUROPEAN = /^(?:[\x00-\x7f\p{M}\u00a0\u00a1\u00ab\u00b7\u00bb\u00bf\u2013\u2014\u2018\u2019\u201c\u201d\u2026]|(?![\x00-\x7f])(?=\p{L})[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])*$/u;
/** A combining mark after something else than a letter or digit: only ICU attaches it as UAX #29 says. */
const STRAY_MARK = /(?:^|[^\p{L}\p{M}0-9])\p{M}/u;
const EUROPEAN_WORD = /[\p{L}0-9_][\p{L}\p{M}0-9_]*(?:(?:(?<=\p{L}\p{M}*)[.':\u00b7\u2018\u2019](?=\p{L})|(?<=[0-9]\p{M}*)[.',;\u2018\u2019](?=[0-9]))[\p{L}\p{M}0-9_]+)*/gu;
const ONE_PER_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}]/u;
const WHOLE_RUN = /^[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const EMOJI = /\p{Extended_Pictographic}/u;

/** The words of a text, in order. */
export function textWords(text: string): string[] {
  if (ASCII.test(text)) return limitLength((text.toLowerCase().match(ASCII_WORD) ?? []).filter((word) => !ONLY_UNDERSCORES.test(word)));
  if (EUROPEAN.test(text) && !STRAY_MARK.test(text)) {
    return limitLength((lowerCase(text).match(EUROPEAN_WORD) ?? []).filter((word) => !ONLY_UNDERSCORES.test(word)));
  }
  const words: string[] = [];
  let runEnd = -1;
  for (const { segment, index, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) {
      if (EMOJI.test(segment)) words.push(segment);
      continue;
    }
    if (ONLY_UNDERSCORES.test(segment)) continue;
    const word = lowerCase(segment);
    if (WHOLE_RUN.test(word) && index === runEnd && words.length > 0) words[words.length - 1] += word;
    else if (ONE_PER_CHARACTER.test(word)) words.push(...splitCharacters(word));
    else words.push(word);
    runEnd = WHOLE_RUN.test(word) ? index + segment.length : -1;
  }
  return limitLength(words);
}

/** A query's prefix or fuzzy term as the analyzer's normaliser leaves it: lower case, not cut into words. */
export function normalizeWord(text: string): string {
  return lowerCase(text);
}

const CONTEXTUAL_CASE = /[\u03a3\u0130]/;

/**
 * Lower case one character at a time, as the reference's lowercase filter does: `Σ` is always
 * `σ` (JavaScript makes a word-final one `ς`) and `İ` is `i` (JavaScript adds a combining dot).
 */
function lowerCase(text: string): string {
  if (!CONTEXTUAL_CASE.test(text)) return text.toLowerCase();
  return text.replace(/\u03a3/g, '\u03c3').replace(/\u0130/g, 'i').toLowerCase();
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
