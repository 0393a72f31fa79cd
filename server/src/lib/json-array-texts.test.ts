import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/seeded-random.js';
import { arrayTextsAt } from './json-array-texts.js';

const PATTERN = ['items', '*', 'vectors', '*'];

/** Every array at `items.*.vectors.*` of a parsed document, by path. */
function expectedArrays(document: unknown): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const items = (document as { items?: unknown }).items;
  if (!Array.isArray(items)) return found;
  items.forEach((item, index) => {
    const vectors = (item as { vectors?: unknown } | null)?.vectors;
    if (typeof vectors !== 'object' || vectors === null || Array.isArray(vectors)) return;
    for (const [name, value] of Object.entries(vectors)) if (Array.isArray(value)) found.set(JSON.stringify(['items', index, 'vectors', name]), value);
  });
  return found;
}

function randomDocument(random: () => number): unknown {
  const pick = <T>(options: T[]) => options[Math.floor(random() * options.length)];
  const text = () => pick(['plain', 'a "quote"', 'back\\slash\\', '] } [ {', '"vectors": [1,2]', 'ünï \u2028 ☃', '\\"', '']);
  const scalar = () => pick<unknown>([text(), random() * 1e6 - 5e5, Math.round(random() * 100), -0.000123, 1e-7, true, false, null]);
  const value = (depth: number): unknown => {
    if (depth > 3 || random() < 0.4) return scalar();
    if (random() < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(['vectors', 'items', 'emb', 'x', 'a\\b', '"q"']), value(depth + 1)]));
  };
  const vector = () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick([random() * 2 - 1, Math.round(random() * 9), -1.5e-300, 3.4e38]));
  const items = Array.from({ length: Math.floor(random() * 5) }, () => {
    const item: Record<string, unknown> = { fields: { text: text() }, metadata: value(0) };
    if (random() < 0.8) {
      item.vectors = Object.fromEntries(
        Array.from({ length: Math.floor(random() * 3) }, () => [pick(['emb', 'e "2"', 'é', '1', 'vectors']), random() < 0.9 ? vector() : value(1)]),
      );
    }
    return item;
  });
  return random() < 0.5 ? { items, extra: value(0) } : { extra: value(0), items };
}

describe('arrayTextsAt', () => {
  it('finds exactly the arrays at the path, as text that parses to them, in any layout (200 random documents)', () => {
    const random = seededRandom(7);
    for (let n = 0; n < 200; n += 1) {
      const document = randomDocument(random);
      const text = JSON.stringify(document, null, [undefined, 2, '\t', ' \n '][n % 4]);
      const found = arrayTextsAt(text, PATTERN);
      const expected = expectedArrays(JSON.parse(text));
      expect(new Map(found.map((f) => [JSON.stringify(f.path), JSON.parse(f.text)])), text).toEqual(expected);
    }
  });

  it('keeps the text as written and lists duplicate keys in order (the last one is what JSON.parse keeps)', () => {
    const text = '{ "items" : [ {"vectors":{"emb":[1.50 , 2e0]}} , {"vect\\u006frs":{"emb":[3]}, "vectors":{"emb":[4],"emb":[5.0]}} ] }';
    expect(arrayTextsAt(text, PATTERN)).toEqual([
      { path: ['items', 0, 'vectors', 'emb'], text: '[1.50 , 2e0]' },
      { path: ['items', 1, 'vectors', 'emb'], text: '[3]' },
      { path: ['items', 1, 'vectors', 'emb'], text: '[4]' },
      { path: ['items', 1, 'vectors', 'emb'], text: '[5.0]' },
    ]);
  });

  it('finds nothing where the path does not lead to arrays', () => {
    for (const text of ['[]', '{}', '{"items":{}}', '{"items":[1,"x",null]}', '{"items":[{"vectors":{"emb":{"a":[1]}}}]}', '"items"', '12']) {
      expect(arrayTextsAt(text, PATTERN), text).toEqual([]);
    }
    // `*` matches an index as well as a key
    expect(arrayTextsAt('{"items":[{"vectors":[[1], 2]}]}', PATTERN)).toEqual([{ path: ['items', 0, 'vectors', 0], text: '[1]' }]);
  });
});
