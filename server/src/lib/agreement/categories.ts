import { answerKey } from './answer-key.js';

/**
 * Categories of one question's answers: answers of equal meaning (e.g. a reordered selection)
 * share an index; `representatives[i]` is an answer of category i.
 */
export class Categories {
  private readonly byKey = new Map<string, number>();
  readonly representatives: unknown[] = [];

  constructor(private readonly type: string) {}

  of(value: unknown): number {
    const key = answerKey(this.type, value);
    let found = this.byKey.get(key);
    if (found === undefined) {
      found = this.representatives.length;
      this.byKey.set(key, found);
      this.representatives.push(value);
    }
    return found;
  }
}
