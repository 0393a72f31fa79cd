import { rankingDistance, spanDistance, type RankedItem, type Span } from './distances.js';
import type { AnswerGroups, AnswerTable } from './answer-table.js';
import { intervalMetric, krippendorffAlpha, nominalMetric, pairwiseAgreement, type FlatUnits, type Metric } from './krippendorff.js';

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

/** Whether questions of this type get agreement figures (text does not). */
export const measuresType = (type: string): boolean => type in METRIC_OF;

/** Units of one question (records with two or more answers to it) and, per value, who gave it. */
interface Units extends FlatUnits {
  users: Int32Array;
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

  addUnits({ offsets, values, users }: Units): void {
    for (let u = 0; u + 1 < offsets.length; u++) {
      for (let i = offsets[u]; i < offsets[u + 1]; i++) {
        this.records[users[i]] += 1;
        for (let j = i + 1; j < offsets[u + 1]; j++) {
          const same = values[i] === values[j] ? 1 : 0;
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

/** The figures of the table's questions over the records `includes` keeps (by their number in `table.recordIds`; all when not given). */
export function computeDatasetAgreement(table: AnswerTable, includes?: (record: number) => boolean): DatasetAgreement {
  const groups = table.groups(includes);
  const overall = new PairTally(table.userIds.length);
  const results: QuestionAgreement[] = [];
  for (let q = 0; q < table.questions.length; q++) {
    const question = table.questions[q];
    const metric = METRIC_OF[question.type];
    if (!metric) continue;
    const measured = measureQuestion(table, q, metric, groups);
    overall.add(measured.tally);
    results.push({ ...measured.result, annotators: measured.tally.present(table.userIds) });
  }
  return { questions: results, annotators: overall.present(table.userIds) };
}

/**
 * The table's categories of question q renumbered for these records: defined options first (for
 * the metrics that read them by index), then each value in the order the records show it.
 */
class Renumbering {
  private readonly index: Int32Array;
  readonly representatives: unknown[] = [];

  constructor(private readonly table: AnswerTable, private readonly q: number) {
    this.index = new Int32Array(table.categories[q].representatives.length).fill(-1);
  }

  of(code: number): number {
    let found = this.index[code];
    if (found < 0) {
      found = this.representatives.length;
      this.index[code] = found;
      this.representatives.push(this.table.categories[this.q].representatives[code]);
    }
    return found;
  }
}

function measureQuestion(
  table: AnswerTable,
  q: number,
  metric: AgreementMetric,
  { order, starts }: AnswerGroups,
): { result: Omit<QuestionAgreement, 'annotators'>; tally: PairTally } {
  const question = table.questions[q];
  const categories = new Renumbering(table, q);
  // Defined options first, in their order: the interval metric reads their values by index.
  if (metric === 'nominal' || metric === 'interval') for (const code of table.optionCodes[q]) categories.of(code);
  const column = table.codes[q];
  const values = new Int32Array(order.length);
  const users = new Int32Array(order.length);
  const offsets = [0];
  let at = 0;
  for (let g = 0; g + 1 < starts.length; g++) {
    const unitStart = at;
    for (let i = starts[g]; i < starts[g + 1]; i++) {
      const code = column[order[i]];
      if (code < 0) continue;
      values[at] = categories.of(code);
      users[at] = table.userAt(order[i]);
      at += 1;
    }
    if (at - unitStart < 2) at = unitStart;
    else offsets.push(at);
  }
  const units: Units = { offsets: Int32Array.from(offsets), values: values.subarray(0, at), users: users.subarray(0, at) };
  const tally = new PairTally(table.userIds.length);
  tally.addUnits(units);
  const base = {
    question: { id: question.id, name: question.name, type: question.type },
    metric,
    records: offsets.length - 1,
    percent_agreement: percent(pairwiseAgreement(units)),
  };
  if (metric === 'nominal_per_label') {
    const perLabel = labelsOf(question, categories.representatives).map((label) => labelAgreement(label, units, categories.representatives));
    const alphas = perLabel.map((l) => l.alpha).filter((a): a is number => a !== null);
    const alpha = alphas.length === 0 ? null : alphas.reduce((sum, a) => sum + a, 0) / alphas.length;
    return { result: { ...base, alpha, labels: perLabel }, tally };
  }
  const alpha = krippendorffAlpha(units, categories.representatives.length, metricFor(metric, categories.representatives)).alpha;
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

/** The question's options, then any other label found in the answers (`selections`: each distinct answer once). */
function labelsOf(question: AgreementQuestion, selections: readonly unknown[]): string[] {
  const labels = new Set(question.options.map(String));
  for (const value of selections) if (Array.isArray(value)) for (const label of value) labels.add(String(label));
  return [...labels];
}

/** One label of a multi-label question as a yes/no nominal judgement of every answer (by its distinct selection). */
function labelAgreement(label: string, units: FlatUnits, selections: readonly unknown[]): LabelAgreement {
  const chosen = selections.map((value) => (Array.isArray(value) && value.some((v) => String(v) === label) ? 1 : 0));
  const labelUnits: FlatUnits = { offsets: units.offsets, values: units.values.map((category) => chosen[category]) };
  return { label, percent_agreement: percent(pairwiseAgreement(labelUnits)), alpha: krippendorffAlpha(labelUnits, 2, nominalMetric).alpha };
}
