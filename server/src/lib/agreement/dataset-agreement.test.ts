import { describe, expect, it } from 'vitest';
import { AnswerTable } from './answer-table.js';
import { computeDatasetAgreement as compute, type AgreementQuestion } from './dataset-agreement.js';

type SubmittedAnswer = Parameters<typeof AnswerTable.from>[1] extends Iterable<infer A> ? A : never;
const computeDatasetAgreement = (questions: AgreementQuestion[], answers: SubmittedAnswer[]) =>
  compute(AnswerTable.from(questions, answers));

const questions: AgreementQuestion[] = [
  { id: 'q1', name: 'label', type: 'label_selection', options: ['pos', 'neg'] },
  { id: 'q2', name: 'topics', type: 'multi_label_selection', options: ['a', 'b'] },
  { id: 'q3', name: 'comment', type: 'text', options: [] },
];

const answer = (recordId: string, userId: string, values: Record<string, unknown>): SubmittedAnswer => ({
  recordId,
  userId,
  values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
});

describe('computeDatasetAgreement', () => {
  const answers = [
    answer('r1', 'u1', { label: 'pos', topics: ['a'], comment: 'x' }),
    answer('r1', 'u2', { label: 'pos', topics: ['a', 'b'], comment: 'y' }),
    answer('r2', 'u1', { label: 'pos', topics: ['b'] }),
    answer('r2', 'u2', { label: 'neg', topics: ['b'] }),
    answer('r3', 'u1', { label: 'neg' }),
    answer('r3', 'u2', { label: 'neg' }),
    answer('r4', 'u1', { label: 'pos', topics: ['a'] }),
  ];
  const result = computeDatasetAgreement(questions, answers);

  it('label: pos/pos, pos/neg, neg/neg give 2 of 3 agreeing pairs and alpha = 1 - (2/6)/(18/30) = 4/9', () => {
    const label = result.questions.find((q) => q.question.name === 'label')!;
    expect(label).toMatchObject({ metric: 'nominal', records: 3 });
    expect(label.percent_agreement).toBeCloseTo(200 / 3, 10);
    expect(label.alpha).toBeCloseTo(4 / 9, 12);
    expect(label.annotators).toEqual([
      { user_id: 'u1', records: 3, percent_agreement: expect.closeTo(200 / 3, 10) },
      { user_id: 'u2', records: 3, percent_agreement: expect.closeTo(200 / 3, 10) },
    ]);
  });

  it('multi-label: a per-label nominal alpha (a: 1, b: 0), their mean, and whole-set agreement', () => {
    const topics = result.questions.find((q) => q.question.name === 'topics')!;
    expect(topics).toMatchObject({ metric: 'nominal_per_label', records: 2, percent_agreement: 50, alpha: 0.5 });
    expect(topics.labels).toEqual([
      { label: 'a', percent_agreement: 100, alpha: 1 },
      { label: 'b', percent_agreement: 50, alpha: 0 },
    ]);
  });

  it('leaves text questions out and sums the annotators over the measured questions', () => {
    expect(result.questions.map((q) => q.question.name)).toEqual(['label', 'topics']);
    // label: 2 of 3 pairs, topics: 1 of 2 pairs
    expect(result.annotators).toEqual([
      { user_id: 'u1', records: 5, percent_agreement: 60 },
      { user_id: 'u2', records: 5, percent_agreement: 60 },
    ]);
  });

  it('rating uses the interval metric, ranking and spans their distances', () => {
    const more: AgreementQuestion[] = [
      { id: 'q4', name: 'rating', type: 'rating', options: [1, 2, 3] },
      { id: 'q5', name: 'ranking', type: 'ranking', options: ['a', 'b'] },
      { id: 'q6', name: 'entities', type: 'span', options: ['PER'] },
    ];
    const rank = (...values: string[]) => values.map((value, i) => ({ value, rank: i + 1 }));
    const span = (start: number, end: number) => [{ start, end, label: 'PER' }];
    const rows = [
      answer('r1', 'u1', { rating: 1, ranking: rank('a', 'b'), entities: span(0, 10) }),
      answer('r1', 'u2', { rating: 2, ranking: rank('a', 'b'), entities: span(5, 15) }),
      answer('r2', 'u1', { rating: 3, ranking: rank('b', 'a'), entities: span(20, 30) }),
      answer('r2', 'u2', { rating: 3, ranking: rank('a', 'b'), entities: span(20, 30) }),
    ];
    const [rating, ranking, entities] = computeDatasetAgreement(more, rows).questions;
    expect(rating).toMatchObject({ metric: 'interval', records: 2, percent_agreement: 50 });
    expect(rating.alpha).toBeCloseTo(8 / 11, 12);
    // ranking: categories [a<b] ×3, [b<a] ×1; D_o = 2·1/4, D_e = 2·3·1·1/(4·3)
    expect(ranking).toMatchObject({ metric: 'kendall_tau', percent_agreement: 50, alpha: 0 });
    // spans: distances 2/3 (r1) and 0 (r2); D_o = 2·(2/3)/4; D_e over the three distinct span sets
    const dO = (2 * (2 / 3)) / 4;
    const dE = (2 * (1 * 1 * (2 / 3) + 1 * 2 * 1 + 1 * 2 * 1)) / (4 * 3);
    expect(entities.metric).toBe('span_overlap');
    expect(entities.alpha).toBeCloseTo(1 - dO / dE, 12);
  });

  it('over some records gives the figures of a table of those records alone', () => {
    const kept = new Set(['r2', 'r3']);
    const table = AnswerTable.from(questions, answers);
    const narrowed = compute(table, (record) => kept.has(table.recordIds[record]));
    expect(narrowed).toEqual(computeDatasetAgreement(questions, answers.filter((a) => kept.has(a.recordId))));
    expect(narrowed.questions.find((q) => q.question.name === 'label')).toMatchObject({ records: 2, percent_agreement: 50 });
  });
});

describe('AnswerTable.setAnswer', () => {
  const before = [
    answer('r1', 'u1', { label: 'pos', topics: ['a'] }),
    answer('r1', 'u2', { label: 'pos', topics: ['a', 'b'] }),
    answer('r2', 'u1', { label: 'pos', topics: ['b'] }),
    answer('r2', 'u2', { label: 'neg', topics: ['b'] }),
    answer('r3', 'u1', { label: 'neg' }),
    answer('r3', 'u2', { label: 'neg' }),
    answer('r4', 'u1', { label: 'pos', topics: ['a'] }),
  ];
  const stored = (values: Record<string, unknown>) => JSON.stringify(answer('', '', values).values);
  // Figures summed in another order may differ in their last digits.
  const rounded = (body: unknown) => JSON.parse(JSON.stringify(body, (_, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(9)) : v)));

  it('gives, once changed, the figures of a table read with the changed answers', () => {
    const table = AnswerTable.from(questions, before);
    compute(table); // read before the changes: they must not find the groups of the first read
    expect(table.setAnswer('r2', 'u2', stored({ label: 'pos', topics: ['b'] }))).toBeUndefined();
    expect(table.setAnswer('r1', 'u1', null)).toBeUndefined();
    expect(table.setAnswer('r9', 'u1', null)).toBeUndefined();
    expect(table.setAnswer('r4', 'u2', stored({ label: 'neg', topics: ['a'], comment: 'new' }))).toBeUndefined();
    const r5 = table.setAnswer('r5', 'u3', stored({ label: 'neg', topics: ['b'] }));
    expect(r5 === undefined ? undefined : table.recordIds[r5]).toBe('r5');
    expect(table.setAnswer('r5', 'u1', stored({ label: 'neg', topics: ['a', 'b'] }))).toBeUndefined();
    expect(table.setAnswer('r3', 'u3', stored({ label: 'pos' }))).toBeUndefined();
    const after = [
      answer('r1', 'u2', { label: 'pos', topics: ['a', 'b'] }),
      answer('r2', 'u1', { label: 'pos', topics: ['b'] }),
      answer('r2', 'u2', { label: 'pos', topics: ['b'] }),
      answer('r3', 'u1', { label: 'neg' }),
      answer('r3', 'u2', { label: 'neg' }),
      answer('r4', 'u1', { label: 'pos', topics: ['a'] }),
      answer('r4', 'u2', { label: 'neg', topics: ['a'], comment: 'new' }),
      answer('r5', 'u3', { label: 'neg', topics: ['b'] }),
      answer('r5', 'u1', { label: 'neg', topics: ['a', 'b'] }),
      answer('r3', 'u3', { label: 'pos' }),
    ];
    expect(table.size).toBe(after.length);
    const byUser = (result: ReturnType<typeof compute>) => ({
      ...result,
      annotators: [...result.annotators].sort((a, b) => a.user_id.localeCompare(b.user_id)),
      questions: result.questions.map((q) => ({ ...q, annotators: [...q.annotators].sort((a, b) => a.user_id.localeCompare(b.user_id)) })),
    });
    expect(rounded(byUser(compute(table)))).toEqual(rounded(byUser(compute(AnswerTable.from(questions, after)))));
    expect(compute(table).questions.find((q) => q.question.name === 'label')).toMatchObject({ records: 4 });
  });
});
