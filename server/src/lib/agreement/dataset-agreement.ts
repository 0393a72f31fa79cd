import { answerKey } from './answer-key.js';
import { rankingDistance, spanDistance, type RankedItem, type Span } from './distances.js';
import { intervalMetric, krippendorffAlpha, nominalMetric, pairwiseAgreement, type Metric } from './krippendorff.js';

/**
 * Inter-annotator agreement of a dataset from its submitted answers: per question the records with
 * at least two answers, the share of agreeing answer pairs and Krippendorff's alpha with a metric
 * that fits the question type; per annotator the share of their answer pairs that agree with the
 * other annotators of the same record. Text questions have no agreement measure and are left out.
 */

export interface AgreementQuestion {
  id: string;
  name: string;
  type: string;
  /** option values in their defined order (labels, rating values) */
  options: unknown[];
}

export interface SubmittedAnswer {
  recordId: string;
  userId: string;
  values: Record<string, { value: unknown } | undefined>;
}

export type AgreementMetric = 'nominal' | 'nominal_per_label' | 'interval' | 'kendall_tau' | 'span_overlap';

export interface AnnotatorAgreement {
  user_id: string;
  /** records where this annotator and at least one other answered */
  records: number;
  /** agreeing pairs / pairs with the others, in percent; null without pairs */
  percent_agreement: number | null;
}

export interface LabelAgreement {
  label: string;
  percent_agreement: number | null;
  alpha: number | null;
}

export interface QuestionAgreement {
  question: { id: string; name: string; type: string };
  metric: AgreementMetric;
  /** records with at least two submitted answers to the question */
  records: number;
  /** identical answers among all pairs of answers to the same record, in percent */
  percent_agreement: number | null;
  /** Krippendorff's alpha (multi-label: the mean over labels); null when undefined (no pairs, no variation) */
  alpha: number | null;
  labels?: LabelAgreement[];
  annotators: AnnotatorAgreement[];
}

export interface DatasetAgreement {
  questions: QuestionAgreement[];
  /** over every measured question */
  annotators: AnnotatorAgreement[];
}

const METRIC_OF: Record<string, AgreementMetric> = {
  label_selection: 'nominal',
  multi_label_selection: 'nominal_per_label',
  rating: 'interval',
  ranking: 'kendall_tau',
  span: 'span_overlap',
};

/** Units of one question: per record with two or more answers, the answers' categories and who gave them. */
interface Units {
  categories: number[][];
  users: number[][];
}

/** Pair counts per annotator (by index), summed over questions for the dataset-wide figure. */
class PairTally {
  readonly pairs: Float64Array;
  readonly agreeing: Float64Array;
  readonly records: Float64Array;
  constructor(size: number) {
    this.pairs = new Float64Array(size);
    this.agreeing = new Float64Array(size);
    this.records = new Float64Array(size);
  }

  addUnits(units: Units): void {
    for (let u = 0; u < units.categories.length; u++) {
      const categories = units.categories[u];
      const users = units.users[u];
      for (const user of users) this.records[user] += 1;
      for (let i = 0; i < categories.length; i++) {
        for (let j = i + 1; j < categories.length; j++) {
          const same = categories[i] === categories[j] ? 1 : 0;
          this.pairs[users[i]] += 1;
          this.pairs[users[j]] += 1;
          this.agreeing[users[i]] += same;
          this.agreeing[users[j]] += same;
        }
      }
    }
  }

  add(other: PairTally): void {
    for (let i = 0; i < this.pairs.length; i++) {
      this.pairs[i] += other.pairs[i];
      this.agreeing[i] += other.agreeing[i];
      this.records[i] += other.records[i];
    }
  }

  present(userIds: readonly string[]): AnnotatorAgreement[] {
    const out: AnnotatorAgreement[] = [];
    for (let i = 0; i < userIds.length; i++) {
      if (this.pairs[i] === 0) continue;
      out.push({ user_id: userIds[i], records: this.records[i], percent_agreement: (100 * this.agreeing[i]) / this.pairs[i] });
    }
    return out;
  }
}

const percent = (share: number | null) => (share === null ? null : 100 * share);

export function computeDatasetAgreement(questions: readonly AgreementQuestion[], answers: readonly SubmittedAnswer[]): DatasetAgreement {
  // Answers grouped by record, users numbered once.
  const userIndex = new Map<string, number>();
  const userIds: string[] = [];
  const byRecord = new Map<string, number[]>();
  for (let a = 0; a < answers.length; a++) {
    const answer = answers[a];
    if (!userIndex.has(answer.userId)) {
      userIndex.set(answer.userId, userIds.length);
      userIds.push(answer.userId);
    }
    const list = byRecord.get(answer.recordId);
    if (list) list.push(a);
    else byRecord.set(answer.recordId, [a]);
  }
  const groups = [...byRecord.values()].filter((list) => list.length >= 2);
  const overall = new PairTally(userIds.length);
  const results: QuestionAgreement[] = [];
  for (const question of questions) {
    const metric = METRIC_OF[question.type];
    if (!metric) continue;
    const measured = measureQuestion(question, metric, answers, groups, userIndex, userIds.length);
    overall.add(measured.tally);
    results.push({ ...measured.result, annotators: measured.tally.present(userIds) });
  }
  return { questions: results, annotators: overall.present(userIds) };
}

/** Categories of one question's answers: equal answers share an index; `representatives[i]` is an answer of category i. */
class Categories {
  private readonly index = new Map<string, number>();
  readonly representatives: unknown[] = [];

  of(key: string, value: unknown): number {
    let found = this.index.get(key);
    if (found === undefined) {
      found = this.representatives.length;
      this.index.set(key, found);
      this.representatives.push(value);
    }
    return found;
  }
}

function measureQuestion(
  question: AgreementQuestion,
  metric: AgreementMetric,
  answers: readonly SubmittedAnswer[],
  groups: readonly number[][],
  userIndex: Map<string, number>,
  userCount: number,
): { result: Omit<QuestionAgreement, 'annotators'>; tally: PairTally } {
  const categories = new Categories();
  // Defined options first, in their order: the interval metric reads their values by index.
  if (metric === 'nominal' || metric === 'interval') for (const option of question.options) categories.of(answerKey(question.type, option), option);
  const units: Units = { categories: [], users: [] };
  const answerSets: unknown[][] = [];
  for (const group of groups) {
    const unitCategories: number[] = [];
    const unitUsers: number[] = [];
    const unitValues: unknown[] = [];
    for (const a of group) {
      const entry = answers[a].values[question.name];
      if (entry === undefined || entry === null) continue;
      unitCategories.push(categories.of(answerKey(question.type, entry.value), entry.value));
      unitUsers.push(userIndex.get(answers[a].userId)!);
      unitValues.push(entry.value);
    }
    if (unitCategories.length < 2) continue;
    units.categories.push(unitCategories);
    units.users.push(unitUsers);
    answerSets.push(unitValues);
  }
  const tally = new PairTally(userCount);
  tally.addUnits(units);
  const base = {
    question: { id: question.id, name: question.name, type: question.type },
    metric,
    records: units.categories.length,
    percent_agreement: percent(pairwiseAgreement(units.categories)),
  };
  if (metric === 'nominal_per_label') {
    const labels = labelsOf(question, answerSets);
    const perLabel = labels.map((label) => labelAgreement(label, answerSets));
    const alphas = perLabel.map((l) => l.alpha).filter((a): a is number => a !== null);
    const alpha = alphas.length === 0 ? null : alphas.reduce((sum, a) => sum + a, 0) / alphas.length;
    return { result: { ...base, alpha, labels: perLabel }, tally };
  }
  const alpha = krippendorffAlpha(units.categories, categories.representatives.length, metricFor(metric, categories.representatives)).alpha;
  return { result: { ...base, alpha }, tally };
}

function metricFor(metric: AgreementMetric, representatives: readonly unknown[]): Metric {
  switch (metric) {
    case 'interval':
      return intervalMetric(representatives.map(Number));
    case 'kendall_tau':
      return (c, k) => (c === k ? 0 : rankingDistance(representatives[c] as RankedItem[], representatives[k] as RankedItem[]));
    case 'span_overlap':
      return (c, k) => (c === k ? 0 : spanDistance(representatives[c] as Span[], representatives[k] as Span[]));
    default:
      return nominalMetric;
  }
}

/** The question's options, then any other label found in the answers. */
function labelsOf(question: AgreementQuestion, answerSets: readonly unknown[][]): string[] {
  const labels = new Set(question.options.map(String));
  for (const unit of answerSets) for (const value of unit) if (Array.isArray(value)) for (const label of value) labels.add(String(label));
  return [...labels];
}

/** One label of a multi-label question as a yes/no nominal judgement of every answer. */
function labelAgreement(label: string, answerSets: readonly unknown[][]): LabelAgreement {
  const units = answerSets.map((unit) => unit.map((value) => (Array.isArray(value) && value.some((v) => String(v) === label) ? 1 : 0)));
  return { label, percent_agreement: percent(pairwiseAgreement(units)), alpha: krippendorffAlpha(units, 2, nominalMetric).alpha };
}
