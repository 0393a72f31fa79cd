import { describe, expect, it } from 'vitest';
import type { RecordPage } from './dataset-snapshot.js';
import { bm25Key, ChampionsBuilder, type ChampionLimits, type ChampionRanking, type TextChampions } from './text-champions-builder.js';
import { decodePostings } from './text-postings.js';
import { seededRandom } from '../../../test/seeded-random.js';

const random = seededRandom(3);
const WORDS = Array.from({ length: 30 }, (_, i) => `w${i}`);
const FIELDS = [{ name: 'a', settings: { type: 'text' } }, { name: 'img', settings: { type: 'image' } }, { name: 'b', settings: '{"type":"text"}' }];

function build(rows: RecordPage, ranking: ChampionRanking, limits: ChampionLimits): TextChampions {
  const builder = new ChampionsBuilder(FIELDS, ranking, limits);
  for (let i = 0; i < rows.length; i += 100) builder.sample(rows.slice(i, i + 100));
  for (let i = 0; i < rows.length; i += 100) builder.rank(rows.slice(i, i + 100));
  return builder.build();
}

const listOf = (champions: TextChampions, term: string) => {
  const list = champions.terms.get(term)!;
  return Array.from(champions.rids.subarray(list.start, list.start + list.count));
};

describe('champion lists', () => {
  // Skewed words, lengths 1..60, an image field the index skips: every rank depends on tf and length.
  const documents = Array.from({ length: 3000 }, () => {
    const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() ** 3 * WORDS.length)]);
    return { a: words(1 + Math.floor(random() * 40)).join(' '), img: 'w0 w0 w0', b: random() < 0.5 ? words(1 + Math.floor(random() * 20)).join('. ') : undefined };
  });
  const rows: RecordPage = documents.map((fields, i) => [i * 3 + 1, JSON.stringify(fields)]);

  /** Every term's hits and its records best first, worked out directly from the documents. */
  function bruteForce(ranking: ChampionRanking) {
    const tokens = documents.map((d) => [d.a, d.b].filter((t): t is string => t !== undefined).join(' ').split(/[^a-z0-9]+/).filter(Boolean));
    // An FTS5 row also holds its `u` word.
    const extra = ranking === 'bm25' ? 1 : 0;
    const average = tokens.reduce((sum, t) => sum + t.length + extra, 0) / tokens.length;
    const byTerm = new Map<string, { rid: number; key: number }[]>();
    tokens.forEach((terms, i) => {
      for (const term of new Set(terms)) {
        const tf = terms.filter((t) => t === term).length;
        const key = ranking === 'bm25' ? bm25Key(tf, terms.length + extra, average) : tf;
        byTerm.set(term, [...(byTerm.get(term) ?? []), { rid: rows[i][0], key }]);
      }
    });
    for (const hits of byTerm.values()) hits.sort((x, y) => y.key - x.key || x.rid - y.rid);
    return { byTerm, average };
  }

  it.each(['bm25', 'frequency'] as const)('%s: each frequent term lists its best records in the order the index ranks them, with its hit count', (ranking) => {
    const limits = { minHits: 200, perTerm: 50, budget: 100_000 };
    const champions = build(rows, ranking, limits);
    const { byTerm, average } = bruteForce(ranking);
    expect(champions.records).toBe(documents.length);
    expect(champions.averageLength).toBeCloseTo(average, 10);
    const frequent = [...byTerm].filter(([, hits]) => hits.length >= limits.minHits);
    expect(frequent.length).toBeGreaterThan(5);
    expect([...champions.terms.keys()].sort()).toEqual(frequent.map(([term]) => term).sort());
    for (const [term, hits] of frequent) {
      expect(champions.terms.get(term)!.hits).toBe(hits.length);
      expect(listOf(champions, term)).toEqual(hits.slice(0, limits.perTerm).map((hit) => hit.rid));
    }
  });

  it('with postings: each listed term keeps the position of every record holding it', () => {
    // Word i is in about 1 record of 2 + i*i: from half the records to rare ones.
    const share = (i: number) => 1 / (2 + i * i);
    const held = Array.from({ length: 3000 }, () => WORDS.filter((_, i) => random() < share(i)));
    const postingRows: RecordPage = held.map((words, i) => [i * 2 + 5, JSON.stringify({ a: [...words, 'every'].join(' ') })]);
    const champions = build(postingRows, 'frequency', { minHits: 40, perTerm: 10, budget: 100_000, postings: true });
    expect(champions.terms.size).toBeGreaterThan(5);
    const encodings = new Set<string>();
    for (const [term, list] of champions.terms) {
      encodings.add(list.postings!.encoding);
      const expected = term === 'every' ? held.map((_, position) => position) : held.flatMap((words, position) => (words.includes(term) ? [position] : []));
      expect(Array.from(decodePostings(champions.postings, list.postings!, list.hits))).toEqual(expected);
    }
    expect([...encodings].sort()).toEqual(['bitset', 'gaps']);
    expect(build(postingRows, 'frequency', { minHits: 40, perTerm: 10, budget: 100_000 }).postings.length).toBe(0);
  });

  it('keeps the most frequent terms within the budget', () => {
    const champions = build(rows, 'bm25', { minHits: 200, perTerm: 50, budget: 150 });
    const { byTerm } = bruteForce('bm25');
    const mostFrequent = [...byTerm].sort((a, b) => b[1].length - a[1].length).slice(0, 3).map(([term]) => term);
    expect([...champions.terms.keys()].sort()).toEqual(mostFrequent.sort());
  });

  it('frequency counts one position past 16383 and at most 256, as a tsvector keeps them', () => {
    const long = [...Array.from({ length: 16_380 }, () => 'pad'), ...Array.from({ length: 100 }, () => 'late')].join(' ');
    const many = Array.from({ length: 300 }, () => 'many').join(' ');
    const few = 'late late many many many';
    // The first record is the one sampled: it holds both terms.
    const champions = build([[1, JSON.stringify({ a: few })], [2, JSON.stringify({ a: many })], [3, JSON.stringify({ a: long })]], 'frequency', { minHits: 1, perTerm: 5, budget: 100 });
    const keysOf = (term: string) => {
      const list = champions.terms.get(term)!;
      return [listOf(champions, term), Array.from(champions.keys.subarray(list.start, list.start + list.count))]; // [rids], [keys]
    };
    expect(keysOf('late')).toEqual([[3, 1], [3, 2]]); // record 3: positions 16381, 16382 and one shared 16383
    expect(keysOf('many')).toEqual([[2, 1], [256, 3]]);
  });
});
