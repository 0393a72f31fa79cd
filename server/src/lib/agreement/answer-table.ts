/**
 * Submitted answers as the agreement figures read them: per answer its record and annotator
 * (numbered once) and, per question, the answer's value as JSON text (null: not answered). Values
 * stay text so that each distinct answer is parsed once, not once per response; the answers of a
 * record are found together by a counting sort, without an array per record.
 */
const TEXTS_CACHED = 50_000;

export class AnswerTable {
  private readonly recordIndex = new Map<string, number>();
  private readonly userIndex = new Map<string, number>();
  readonly userIds: string[] = [];
  private readonly recordOf: number[] = [];
  private readonly userOf: number[] = [];
  /** per question (in `questionNames` order), per answer: the value's JSON text or null */
  readonly columns: (string | null)[][];
  private readonly textsOfStored = new Map<string, (string | null)[]>();
  private lastUserId: string | undefined;
  private lastUser = -1;

  constructor(readonly questionNames: readonly string[]) {
    this.columns = questionNames.map(() => []);
  }

  /** From parsed response values (`{question: {value}}`), as the API shows them. */
  static from(questionNames: readonly string[], answers: Iterable<{ recordId: string; userId: string; values: Record<string, { value: unknown } | undefined> }>): AnswerTable {
    const table = new AnswerTable(questionNames);
    for (const answer of answers) {
      const texts = questionNames.map((name) => {
        const entry = answer.values[name];
        return entry === undefined || entry.value === null || entry.value === undefined ? null : JSON.stringify(entry.value);
      });
      table.add(answer.recordId, answer.userId, texts);
    }
    return table;
  }

  /**
   * A response's stored values (JSON text). Responses with the same answers store the same text:
   * it is parsed once and its answers' texts reused, up to TEXTS_CACHED distinct values (free-text
   * answers make most values unique, and then caching only costs memory).
   */
  addStored(recordId: string, userId: string, stored: string): void {
    let texts = this.textsOfStored.get(stored);
    if (texts === undefined) {
      const values = JSON.parse(stored) as Record<string, { value?: unknown } | null | undefined>;
      texts = this.questionNames.map((name) => {
        const value = values[name]?.value;
        return value === undefined || value === null ? null : JSON.stringify(value);
      });
      if (this.textsOfStored.size < TEXTS_CACHED) this.textsOfStored.set(stored, texts);
    }
    this.add(recordId, userId, texts);
  }

  /** `texts[q]`: the JSON text of the answer to questionNames[q], null when not answered. */
  add(recordId: string, userId: string, texts: readonly (string | null)[]): void {
    let record = this.recordIndex.get(recordId);
    if (record === undefined) {
      record = this.recordIndex.size;
      this.recordIndex.set(recordId, record);
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
    this.recordOf.push(record);
    this.userOf.push(user);
    for (let q = 0; q < this.columns.length; q++) this.columns[q].push(texts[q]);
  }

  /** The annotator (index into userIds) of answer a. */
  userAt(a: number): number {
    return this.userOf[a];
  }

  /**
   * Answers of records with two or more answers, record after record: `order` lists answer
   * indices and record g's answers are `order[starts[g]]` up to `order[starts[g + 1]]`.
   */
  groups(): { order: Int32Array; starts: Int32Array } {
    const records = this.recordIndex.size;
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
