import { MAX_TSVECTOR_POSITION, MAX_TSVECTOR_POSITIONS } from '../postgres-binary-tsvector.js';
import type { RecordPage } from './dataset-snapshot.js';
import { searchableText, type TextIndexField } from './text-index.js';
import { textWords } from './text-tokenizer.js';
import { PostingsWriter, type TermPostings } from './text-postings.js';

/**
 * Champion lists (storage/search/text-champions.ts): for each frequent term of a dataset, its
 * best records by the relevance the text index ranks with, worked out from the records' fields
 * exactly as the index tokenises them.
 *
 * A one-term query's relevance orders its hits by a per-hit key (the query's weight, e.g. bm25's
 * idf, is the same for every hit):
 * - `bm25` (SQLite FTS5): tf·(k1+1) / (tf + k1·(1 − b + b·D/avgdl)), D the record's token count
 *   over all fields plus the index's `u` word (text-index.ts), avgdl its mean, k1 = 1.2, b = 0.75, FTS5's formula and constants;
 * - `frequency` (PostgreSQL ts_rank without normalisation): the term's position count in the
 *   record's tsvector, which ts_rank grows with (positions past 16383 share one, at most 256).
 * Ties go to the lower rid in both, as the index's own ranking breaks them.
 */
export type ChampionRanking = 'bm25' | 'frequency';

export interface TermChampions {
  /** The term's champions are `rids/keys[start .. start + count)`, best first. */
  start: number;
  count: number;
  /** Records holding the term: the total of a one-term search. */
  hits: number;
  /** Every record holding the term (text-postings.ts), when the lists keep them. */
  postings?: TermPostings;
}

export interface TextChampions {
  ranking: ChampionRanking;
  /** Records in the dataset and their mean token count (bm25's corpus statistics). */
  records: number;
  averageLength: number;
  terms: Map<string, TermChampions>;
  rids: Float64Array;
  keys: Float64Array;
  /** The terms' postings, one after the other (empty when the lists keep none). */
  postings: Uint8Array;
}

export interface ChampionLimits {
  /** Terms in fewer records are left to the index (it ranks a few thousand hits in milliseconds). */
  minHits: number;
  /** Champions kept per term: the deepest page a one-term search answers from them. */
  perTerm: number;
  /** Champions kept over all terms; the most frequent terms are kept first. */
  budget: number;
  /** Also keep every hit of each listed term (text-postings.ts). */
  postings?: boolean;
}

/**
 * Lists where the index is slow: FTS5 ranked 20,000 hits in 13 ms on one day and 35–55 ms on a
 * slower one (the 1M-record bench), so it gets lists from 10,000 hits; PostgreSQL visits each hit's row
 * (~7 µs a hit at 1M records: 6,700 hits took 45–110 ms), so it gets lists from 3,000 hits. Both
 * keep postings: with them a filtered search in relevance order reads the total without ranking
 * every hit (FTS5's bm25 of a frequent term's 100k hits: 50–200 ms at 1M).
 */
export const DEFAULT_CHAMPION_LIMITS: Record<ChampionRanking, ChampionLimits> = {
  bm25: { minHits: 10_000, perTerm: 500, budget: 1_000_000, postings: true },
  frequency: { minHits: 3_000, perTerm: 500, budget: 1_000_000, postings: true },
};

const K1 = 1.2;
const B = 0.75;
/** The first pass takes the terms of one record in this many: enough to tell the frequent ones. */
const SAMPLE_EVERY = 8;
/** Terms sampled at this share of `minHits` get a list (a sample undercounts some); lists under `minHits` are dropped. */
const SAMPLE_SLACK = 0.7;

/**
 * Builds the lists in two passes over one snapshot of the records: `sample` every page (every
 * record's length, for bm25's mean; the terms of one record in SAMPLE_EVERY, to choose the
 * frequent ones), then `rank` every page (exact hit counts and the best records per chosen term).
 */
export class ChampionsBuilder {
  private readonly fields: { name: string; settings: { type: string } }[];
  private readonly sampledHits = new Map<string, number>();
  private sampled = 0;
  private records = 0;
  private tokens = 0;
  private heaps?: Map<string, TermHeap>;
  /** Records seen by `rank`: the next record's position in the snapshot. */
  private position = 0;
  /** Words an FTS5 row holds besides the fields': its `u` word. */
  private readonly rowExtra: number;

  constructor(
    fields: TextIndexField[],
    private readonly ranking: ChampionRanking,
    private readonly limits: ChampionLimits = DEFAULT_CHAMPION_LIMITS[ranking],
  ) {
    this.rowExtra = ranking === 'bm25' ? 1 : 0;
    this.fields = fields.map((field) => ({ name: field.name, settings: typeof field.settings === 'string' ? JSON.parse(field.settings) : field.settings }));
  }

  sample(rows: RecordPage): void {
    for (const [, json] of rows) {
      const texts = this.recordTexts(json);
      if (this.records++ % SAMPLE_EVERY === 0) {
        const tokens = texts.flatMap(textWords);
        this.tokens += tokens.length + this.rowExtra;
        this.sampled += 1;
        for (const term of new Set(tokens)) this.sampledHits.set(term, (this.sampledHits.get(term) ?? 0) + 1);
      } else {
        this.tokens += this.rowExtra;
        for (const text of texts) this.tokens += textWords(text).length;
      }
    }
  }

  rank(rows: RecordPage): void {
    const heaps = (this.heaps ??= this.chosenTerms());
    const averageLength = this.averageLength();
    const touched: TermHeap[] = [];
    for (const [rid, json] of rows) {
      const tokens = this.recordTexts(json).flatMap(textWords);
      for (let index = 0; index < tokens.length; index++) {
        const heap = heaps.get(tokens[index]);
        if (!heap) continue;
        if (heap.frequency === 0) touched.push(heap);
        heap.count(index + 1);
      }
      for (const heap of touched) {
        heap.postings?.add(this.position);
        const frequency = this.ranking === 'bm25' ? heap.frequency : Math.min(MAX_TSVECTOR_POSITIONS, heap.frequency);
        heap.offer(this.ranking === 'bm25' ? bm25Key(frequency, tokens.length + this.rowExtra, averageLength) : frequency, rid);
        heap.endRecord();
      }
      touched.length = 0;
      this.position += 1;
    }
  }

  build(): TextChampions {
    const lists = [...(this.heaps ?? new Map<string, TermHeap>())].filter(([, heap]) => heap.hits >= this.limits.minHits);
    let size = 0;
    for (const [, heap] of lists) size += heap.size;
    const rids = new Float64Array(size);
    const keys = new Float64Array(size);
    const terms = new Map<string, TermChampions>();
    const encoded = lists.map(([, heap]) => heap.postings?.finish(this.records));
    const postings = new Uint8Array(encoded.reduce((sum, list) => sum + (list?.bytes.length ?? 0), 0));
    let start = 0;
    let offset = 0;
    lists.forEach(([term, heap], i) => {
      const count = heap.drainBestFirst(rids, keys, start);
      const list = encoded[i];
      if (list) postings.set(list.bytes, offset);
      terms.set(term, { start, count, hits: heap.hits, postings: list && { offset, length: list.bytes.length, encoding: list.encoding } });
      start += count;
      offset += list?.bytes.length ?? 0;
    });
    return { ranking: this.ranking, records: this.records, averageLength: this.averageLength(), terms, rids, keys, postings };
  }

  private averageLength(): number {
    return this.records === 0 ? 0 : this.tokens / this.records;
  }

  private chosenTerms(): Map<string, TermHeap> {
    const scale = this.records / Math.max(1, this.sampled);
    const frequent = [...this.sampledHits].filter(([, hits]) => hits * scale >= this.limits.minHits * SAMPLE_SLACK).sort((a, b) => b[1] - a[1]);
    const kept = frequent.slice(0, Math.floor(this.limits.budget / this.limits.perTerm));
    this.sampledHits.clear();
    return new Map(kept.map(([term]) => [term, new TermHeap(this.limits.perTerm, this.limits.postings ? new PostingsWriter() : undefined)]));
  }

  /** The record's searchable texts in index column order, as the text index receives them. */
  private recordTexts(json: string | null): string[] {
    const values = json ? (JSON.parse(json) as Record<string, unknown>) : {};
    const texts: string[] = [];
    for (const field of this.fields) {
      const text = searchableText(field, values[field.name]);
      if (text !== null) texts.push(text);
    }
    return texts;
  }
}

export function bm25Key(frequency: number, length: number, averageLength: number): number {
  return (frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + (B * length) / averageLength));
}

/** FTS5's bm25 weight of a term in `hits` of `records` rows (never below 1e-6, as FTS5 clamps it). */
export function bm25Weight(records: number, hits: number): number {
  const idf = Math.log((records - hits + 0.5) / (hits + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/**
 * A term's best records, as a binary heap with the worst at the root: lowest key, and among equal
 * keys the highest rid. Records are offered in rid order, so an equal key never displaces an
 * entry already kept: the heap ends with exactly the best `capacity` in (key desc, rid asc)
 * order, ties included. Also counts the term's hits and, per record, its frequency.
 */
class TermHeap {
  private readonly keys: Float64Array;
  private readonly rids: Float64Array;
  size = 0;
  hits = 0;
  /** Occurrences in the current record; PostgreSQL counts one position for all past MAX_TSVECTOR_POSITION. */
  frequency = 0;
  private pastLastPosition = false;

  constructor(
    private readonly capacity: number,
    /** Every record offered, when the term's postings are kept. */
    readonly postings?: PostingsWriter,
  ) {
    this.keys = new Float64Array(capacity);
    this.rids = new Float64Array(capacity);
  }

  count(position: number): void {
    if (position >= MAX_TSVECTOR_POSITION) {
      if (this.pastLastPosition) return;
      this.pastLastPosition = true;
    }
    this.frequency += 1;
  }

  endRecord(): void {
    this.hits += 1;
    this.frequency = 0;
    this.pastLastPosition = false;
  }

  offer(key: number, rid: number): void {
    if (this.size < this.capacity) {
      this.keys[this.size] = key;
      this.rids[this.size] = rid;
      this.up(this.size++);
    } else if (key > this.keys[0]) {
      this.keys[0] = key;
      this.rids[0] = rid;
      this.down(0);
    }
  }

  /** Writes the entries best first at `start` of the output arrays and empties the heap; returns how many. */
  drainBestFirst(rids: Float64Array, keys: Float64Array, start: number): number {
    const count = this.size;
    for (let i = count - 1; i >= 0; i--) {
      rids[start + i] = this.rids[0];
      keys[start + i] = this.keys[0];
      this.size -= 1;
      this.keys[0] = this.keys[this.size];
      this.rids[0] = this.rids[this.size];
      this.down(0);
    }
    return count;
  }

  private worse(a: number, b: number): boolean {
    return this.keys[a] < this.keys[b] || (this.keys[a] === this.keys[b] && this.rids[a] > this.rids[b]);
  }

  private swap(a: number, b: number): void {
    swapIn(this.keys, a, b);
    swapIn(this.rids, a, b);
  }

  private up(index: number): void {
    for (let i = index; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.worse(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(index: number): void {
    for (let i = index; ; ) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < this.size && this.worse(left, worst)) worst = left;
      if (right < this.size && this.worse(right, worst)) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }
}

function swapIn(array: Float64Array, a: number, b: number): void {
  const value = array[a];
  array[a] = array[b];
  array[b] = value;
}
