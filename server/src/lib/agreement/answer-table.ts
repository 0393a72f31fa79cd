import { Categories } from './categories.js';
import type { AgreementQuestion } from './dataset-agreement.js';

/**
 * Submitted answers as the agreement figures read them: per answer its record and annotator
 * (numbered once) and, per question, the category of the answer's value (-1: not answered). Each
 * distinct stored value is parsed once, not once per response; the answers of a record are found
 * together by a counting sort, without an array per record. One table serves every request until
 * the answers change (resources/agreement/answer-cache.ts), and a single changed answer is written
 * into it (`setAnswer`) rather than the whole table read again. Its first read packs it into typed
 * arrays (about 47 bytes an answer with its record's id) and ends the filling.
 */
const STORED_CACHED = 50_000;

/** Answers of records with two or more answers, record after record: record g's answers are `order[starts[g]]` up to `order[starts[g + 1]]`. */
export interface AnswerGroups {
  order: Int32Array;
  starts: Int32Array;
}

/** A filled table: per answer its record and annotator (indices), per question and answer its category. */
interface PackedAnswers {
  recordOf: Int32Array;
  userOf: Int32Array;
  codes: Int32Array[];
}

/** `recordOf` of a slot that holds no answer: a removed answer's, or room not yet used. */
const FREE = -1;

export class AnswerTable {
  private readonly recordIndex = new Map<string, number>();
  private readonly recordKeys: string[] = [];
  private readonly userIndex = new Map<string, number>();
  readonly userIds: string[] = [];
  /** while filling: per answer its record and annotator, per question and answer its category */
  private filling: { recordOf: number[]; userOf: number[]; codes: number[][] } | undefined;
  private packed: PackedAnswers | undefined;
  readonly categories: Categories[];
  /** per question: the categories of its defined options, in their order */
  readonly optionCodes: number[][];
  private readonly codesOfStored = new Map<string, number[]>();
  private lastUserId: string | undefined;
  private lastUser = -1;
  private grouped: AnswerGroups | undefined;
  /** slots holding no answer (recordOf FREE), filled before the arrays grow */
  private readonly freeSlots: number[] = [];

  constructor(readonly questions: readonly AgreementQuestion[]) {
    this.filling = { recordOf: [], userOf: [], codes: questions.map(() => []) };
    this.categories = questions.map((q) => new Categories(q.type));
    this.optionCodes = questions.map((q, i) => q.options.map((option) => this.categories[i].of(option)));
  }

  /** Answers in number: one per submitted response read. */
  get size(): number {
    return this.filling ? this.filling.recordOf.length : this.packed!.recordOf.length - this.freeSlots.length;
  }

  /** The records' ids; a record's index in it is its number in the table. */
  get recordIds(): readonly string[] {
    return this.recordKeys;
  }

  /** Per question (in `questions` order), per answer: its category in `categories[q]`, -1 when not answered. */
  get codes(): readonly Int32Array[] {
    return this.pack().codes;
  }

  /** From parsed response values (`{question: {value}}`), as the API shows them. */
  static from(questions: readonly AgreementQuestion[], answers: Iterable<{ recordId: string; userId: string; values: Record<string, { value: unknown } | undefined> }>): AnswerTable {
    const table = new AnswerTable(questions);
    for (const answer of answers) table.add(answer.recordId, answer.userId, table.codesOf(answer.values));
    return table;
  }

  /**
   * A response's stored values (JSON text). Responses with the same answers store the same text:
   * it is parsed once and its categories reused, up to STORED_CACHED distinct values (free-text
   * answers make most values unique, and then caching only costs memory).
   */
  addStored(record: string, userId: string, stored: string): void {
    let codes = this.codesOfStored.get(stored);
    if (codes === undefined) {
      codes = this.codesOf(JSON.parse(stored) as Record<string, { value?: unknown } | null | undefined>);
      if (this.codesOfStored.size < STORED_CACHED) this.codesOfStored.set(stored, codes);
    }
    this.add(record, userId, codes);
  }

  /**
   * Puts the answer of `userId` to `record` (stored values, as addStored takes them) in place of
   * the one the table holds, or removes it when `stored` is null. Returns the record's number when
   * the record is new to the table (its id is then the last of recordIds), otherwise undefined.
   */
  setAnswer(record: string, userId: string, stored: string | null): number | undefined {
    const packed = this.pack();
    this.grouped = undefined;
    let index = this.numberOfRecord(record);
    let user = this.userIds.indexOf(userId);
    const slot = index === undefined || user < 0 ? -1 : findSlot(packed, index, user);
    if (stored === null) {
      if (slot >= 0) {
        packed.recordOf[slot] = FREE;
        this.freeSlots.push(slot);
      }
      return undefined;
    }
    const codes = this.codesOf(JSON.parse(stored) as Record<string, { value?: unknown } | null | undefined>);
    let added: number | undefined;
    if (index === undefined) {
      index = added = this.recordKeys.length;
      this.recordIndex.set(record, index);
      this.recordKeys.push(record);
    }
    if (user < 0) {
      user = this.userIds.length;
      this.userIds.push(userId);
    }
    const at = slot >= 0 ? slot : this.freeSlot();
    this.packed!.recordOf[at] = index;
    this.packed!.userOf[at] = user;
    for (let q = 0; q < codes.length; q++) this.packed!.codes[q][at] = codes[q];
    return added;
  }

  /** The record's number, by an index built on the first change after the filling (the filling's was let go). */
  private numberOfRecord(record: string): number | undefined {
    if (this.recordIndex.size === 0) this.recordKeys.forEach((id, index) => this.recordIndex.set(id, index));
    return this.recordIndex.get(record);
  }

  /** A slot for a new answer: a removed answer's, or one of new room (a quarter more) when none is left. */
  private freeSlot(): number {
    if (this.freeSlots.length === 0) {
      const old = this.packed!;
      const length = old.recordOf.length;
      const grown = (array: Int32Array) => {
        const copy = new Int32Array(length + Math.max(16, length >> 2));
        copy.set(array);
        return copy;
      };
      this.packed = { recordOf: grown(old.recordOf), userOf: grown(old.userOf), codes: old.codes.map(grown) };
      this.packed.recordOf.fill(FREE, length);
      for (let slot = this.packed.recordOf.length - 1; slot >= length; slot--) this.freeSlots.push(slot);
    }
    return this.freeSlots.pop()!;
  }

  private codesOf(values: Record<string, { value?: unknown } | null | undefined>): number[] {
    return this.questions.map((q, i) => {
      const value = values[q.name]?.value;
      return value === undefined || value === null ? -1 : this.categories[i].of(value);
    });
  }

  private add(record: string, userId: string, codes: readonly number[]): void {
    const filling = this.filling;
    if (!filling) throw new Error('answers cannot be added to a table once read');
    let index = this.recordIndex.get(record);
    if (index === undefined) {
      index = this.recordKeys.length;
      this.recordIndex.set(record, index);
      this.recordKeys.push(record);
    }
    // Rows mostly arrive user by user (the responses index): the previous answer's author is checked first.
    let user = userId === this.lastUserId ? this.lastUser : this.userIndex.get(userId);
    if (user === undefined) {
      user = this.userIds.length;
      this.userIndex.set(userId, user);
      this.userIds.push(userId);
    }
    this.lastUserId = userId;
    this.lastUser = user;
    filling.recordOf.push(index);
    filling.userOf.push(user);
    for (let q = 0; q < filling.codes.length; q++) filling.codes[q].push(codes[q]);
  }

  /** The filled table in typed arrays; the maps only the filling needs are let go. */
  private pack(): PackedAnswers {
    if (this.filling) {
      const { recordOf, userOf, codes } = this.filling;
      this.packed = { recordOf: Int32Array.from(recordOf), userOf: Int32Array.from(userOf), codes: codes.map((column) => Int32Array.from(column)) };
      this.filling = undefined;
      this.codesOfStored.clear();
      this.recordIndex.clear();
      this.userIndex.clear();
    }
    return this.packed!;
  }

  /** The annotator (index into userIds) of answer a. */
  userAt(a: number): number {
    return this.packed!.userOf[a];
  }

  /** The groups of records with two or more answers, those `includes` keeps (by record number) when given. */
  groups(includes?: (record: number) => boolean): AnswerGroups {
    const all = (this.grouped ??= this.groupAll());
    if (!includes) return all;
    const order = new Int32Array(all.order.length);
    const starts: number[] = [0];
    let at = 0;
    for (let g = 0; g + 1 < all.starts.length; g++) {
      if (!includes(this.packed!.recordOf[all.order[all.starts[g]]])) continue;
      for (let i = all.starts[g]; i < all.starts[g + 1]; i++) order[at++] = all.order[i];
      starts.push(at);
    }
    return { order: order.subarray(0, at), starts: Int32Array.from(starts) };
  }

  private groupAll(): AnswerGroups {
    const { recordOf } = this.pack();
    const records = this.recordKeys.length;
    const counts = new Int32Array(records + 1);
    for (const record of recordOf) if (record !== FREE) counts[record + 1] += 1;
    for (let r = 0; r < records; r++) counts[r + 1] += counts[r];
    const sorted = new Int32Array(counts[records]);
    const next = counts.slice(0, records);
    for (let a = 0; a < recordOf.length; a++) if (recordOf[a] !== FREE) sorted[next[recordOf[a]]++] = a;
    const starts: number[] = [0];
    const order = new Int32Array(sorted.length);
    let at = 0;
    for (let r = 0; r < records; r++) {
      if (counts[r + 1] - counts[r] < 2) continue;
      for (let i = counts[r]; i < counts[r + 1]; i++) order[at++] = sorted[i];
      starts.push(at);
    }
    return { order: order.subarray(0, at), starts: Int32Array.from(starts) };
  }
}

/** The slot of the answer of `user` to `record`, -1 if none: a scan, as a change is rare next to the reads. */
function findSlot({ recordOf, userOf }: PackedAnswers, record: number, user: number): number {
  for (let a = 0; a < recordOf.length; a++) if (recordOf[a] === record && userOf[a] === user) return a;
  return -1;
}
