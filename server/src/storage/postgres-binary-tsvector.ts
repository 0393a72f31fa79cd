/**
 * A tsvector in PostgreSQL's binary wire format (`tsvectorrecv`), made from words already cut
 * (text-tokenizer.ts): PostgreSQL then copies the lexemes in, where the text form made it parse,
 * unquote and sort every word (a sixth of its time in a bulk ingestion, measured with perf).
 *
 * The result is the value `tsvectorin` makes of `'word':position ...` text: each lexeme once, in
 * order, with its positions ascending, at most 256 of them, none past 16,383 (the last position
 * PostgreSQL keeps; later words share it).
 */

/** The last position a tsvector holds. */
export const MAX_TSVECTOR_POSITION = 16_383;
/** Positions a tsvector keeps per lexeme. */
export const MAX_TSVECTOR_POSITIONS = 256;
/**
 * PostgreSQL refuses a tsvector whose lexemes and positions pass 1 MiB (counting 4 bytes per
 * position, as `tsvectorrecv` does, and a byte of alignment per lexeme), also when joining a
 * record's fields into one. A record's fields share that budget in order: a text that long keeps
 * the lexemes of its first distinct words, where the write would fail.
 */
const MAX_DATA_BYTES = (1 << 20) - 1;

/**
 * Each field's words (null: no value) as a binary tsvector whose positions start at
 * `firstPosition`; null where a field has no value.
 */
export function postgresBinaryTsvectors(fields: readonly (readonly string[] | null)[], firstPosition: number): (Buffer | null)[] {
  const budget = { bytes: MAX_DATA_BYTES };
  return fields.map((words) => (words === null ? null : binaryTsvector(words, firstPosition, budget)));
}

function binaryTsvector(words: readonly string[], firstPosition: number, budget: { bytes: number }): Buffer {
  // A word's position, or its positions once it has more than one.
  const positions = new Map<string, number | number[]>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const position = Math.min(MAX_TSVECTOR_POSITION, firstPosition + i);
    const seen = positions.get(word);
    if (seen === undefined) positions.set(word, position);
    else if (typeof seen === 'number') {
      if (seen !== position) positions.set(word, [seen, position]);
    } else if (seen.length < MAX_TSVECTOR_POSITIONS && seen[seen.length - 1] !== position) seen.push(position);
  }
  // Lexemes go in the order they first appear (PostgreSQL sorts them, faster than this side), and
  // the budget keeps a text's first words. At most 3 UTF-8 bytes per UTF-16 unit: a text that
  // cannot pass the budget skips measuring each word before writing it.
  let bound = 4;
  let need = 0;
  for (const [word, seen] of positions) {
    const count = typeof seen === 'number' ? 1 : seen.length;
    bound += 3 * word.length + 3 + 2 * count;
    need += 3 * word.length + 1 + (count + 1) * 4;
  }
  const measured = need > budget.bytes;
  const out = Buffer.allocUnsafe(bound);
  let at = 4;
  let lexemes = 0;
  for (const [word, seen] of positions) {
    // A lexeme is sent NUL-terminated, so cannot hold a NUL.
    if (word.length === 0 || word.includes('\0')) continue;
    const count = typeof seen === 'number' ? 1 : seen.length;
    if (measured && Buffer.byteLength(word) + 1 + (count + 1) * 4 > budget.bytes) break;
    const lexemeStart = at;
    at = writeLexeme(out, at, word);
    budget.bytes -= at - lexemeStart + (count + 1) * 4;
    at = out.writeUInt16BE(count, at);
    if (typeof seen === 'number') at = out.writeUInt16BE(seen, at);
    else for (const position of seen) at = out.writeUInt16BE(position, at);
    lexemes += 1;
  }
  out.writeInt32BE(lexemes, 0);
  return out.subarray(0, at);
}

/** `word` NUL-terminated in UTF-8; an ASCII word byte by byte, cheaper than a call to the encoder for a few characters. */
function writeLexeme(out: Buffer, start: number, word: string): number {
  let at = start;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code > 0x7f) {
      at = start + out.write(word, start, 'utf8');
      break;
    }
    out[at++] = code;
  }
  out[at] = 0;
  return at + 1;
}
