import { Categories } from './categories.js';
import type { AgreementQuestion } from './dataset-agreement.js';

/**
 * Submitted answers as the agreement figures read them: per answer its record and annotator
 * (numbered once) and, per question, the category of the answer's value (-1: not answered). Each
 * distinct stored value is parsed once, not once per response; the answers of a record are found
 * together by a counting sort, without an array per record. Once filled, a table is only read, so
 * one table serves every request until the answers change (resources/agreement/answer-cache.ts).
 */
const STORED_CACHED = 50_000;

/** Answers of records with two or more answers, record after record: record g's answers are `order[starts[g]]` up to `order[starts[g + 1]]`. */
export interface AnswerGroups {
  order: Int32Array;
  starts: Int32Array;
}

export class AnswerTable {
  private readonly recordIndex = new Map<string, number>();
  private readonly recordKeys: string[] = [];
  private readonly userIndex = new Map<string, number>();
  readonly userIds: string[] = [];
  private readonly recordOf: number[] = [];
  private readonly userOf: number[] = [];
  /** per question (in `questions` order), per answer: its category in `categories[q]`, -1 when not answered */
  readonly codes: number[][];
  readonly categories: Categories[];
  /** per question: the categories of its defined options, in their order */
  readonly optionCodes: number[][];
  private readonly codesOfStored = new Map<string, number[]>();
  private lastUserId: string | undefined;
  private lastUser = -1;
  private grouped: AnswerGroups | undefined;

  constructor(readonly questions: readonly AgreementQuestion[]) {
    this.codes = questions.map(() => []);
    this.categories = questions.map((q) => new Categories(q.type));
    this.optionCodes = questions.map((q, i) => q.options.map((option) => this.categories[i].of(option)));
  }

  /** Answers in number: one per submitted response read. */
  get size(): number {
    return this.recordOf.length;
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

  private codesOf(values: Record<string, { value?: unknown } | null | undefined>): number[] {
    return this.questions.map((q, i) => {
      const value = values[q.name]?.value;
      return value === undefined || value === null ? -1 : this.categories[i].of(value);
    });
  }

  private add(record: string, userId: string, codes: readonly number[]): void {
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
    this.recordOf.push(index);
    this.userOf.push(user);
    for (let q = 0; q < this.codes.length; q++) this.codes[q].push(codes[q]);
    this.grouped = undefined;
  }

  /** The annotator (index into userIds) of answer a. */
  userAt(a: number): number {
    return this.userOf[a];
  }

  /** The groups of records with two or more answers, those `includes` keeps when given. */
  groups(includes?: (recordId: string) => boolean): AnswerGroups {
    const all = (this.grouped ??= this.groupAll());
    if (!includes) return all;
    const order = new Int32Array(all.order.length);
    const starts: number[] = [0];
    let at = 0;
    for (let g = 0; g + 1 < all.starts.length; g++) {
      if (!includes(this.recordKeys[this.recordOf[all.order[all.starts[g]]]])) continue;
      for (let i = all.starts[g]; i < all.starts[g + 1]; i++) order[at++] = all.order[i];
      starts.push(at);
    }
    return { order: order.subarray(0, at), starts: Int32Array.from(starts) };
  }

  private groupAll(): AnswerGroups {
    // Grouping is asked for once the table is filled: the parsed values are no longer needed.
    this.codesOfStored.clear();
    const records = this.recordKeys.length;
    const counts = new Int32Array(records + 1);
    for (const record of this.recordOf) counts[record + 1] += 1;
    for (let r = 0; r < records; r++) counts[r + 1] += counts[r];
    const sorted = new Int32Array(this.recordOf.length);
    const next = counts.slice(0, records);
    for (let a = 0; a < this.recordOf.length; a++) sorted[next[this.recordOf[a]]++] = a;
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
