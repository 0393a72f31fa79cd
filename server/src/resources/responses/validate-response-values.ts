import { UnprocessableError } from '../../errors.js';
import { pyRepr, pyType } from '../../lib/python-repr.js';

/** `type(value)` as an f-string prints it: `<class 'int'>`. */
const pyClass = (value: unknown): string => `<class '${pyType(value)}'>`;

/** The parts of a question's stored settings that value checks read (contract §3.3). */
export interface QuestionSettingsLike {
  type: string;
  options?: { value: unknown }[];
  /** span: the field the spans point into */
  field?: string;
  allow_overlapping?: boolean;
}

export interface ValueCheckOptions {
  /** The record's (merged) fields; span values are measured against them. */
  recordFields: Record<string, unknown>;
  /** Ranking completeness applies only to submitted responses (never to suggestions). */
  status?: 'draft' | 'submitted' | 'discarded';
}

/** Contract §3.7: at most 10 000 spans per value. */
const SPAN_MAX_ITEMS = 10_000;

/**
 * Checks one value against its question (contract §3.7 table) and returns the value as stored
 * (ranking items get `rank: null` when omitted). Throws UnprocessableError with the reference's
 * plain detail strings. Used for response values and suggestion values alike.
 */
export function validateResponseValue(value: unknown, settings: QuestionSettingsLike, options: ValueCheckOptions): unknown {
  switch (settings.type) {
    case 'text':
      if (typeof value !== 'string') throw new UnprocessableError(`text question expects a text value, found ${pyClass(value)}`);
      return value;
    case 'label_selection':
      return checkLabel(value, settings);
    case 'multi_label_selection':
      return checkMultiLabel(value, settings);
    case 'rating':
      return checkRating(value, settings);
    case 'ranking':
      return checkRanking(value, settings, options.status);
    case 'span':
      return checkSpans(value, settings, options.recordFields);
    default:
      throw new UnprocessableError(`unknown question type f${pyRepr(settings.type)}`);
  }
}

const optionValues = (settings: QuestionSettingsLike): unknown[] => (settings.options ?? []).map((o) => o.value);

function checkLabel(value: unknown, settings: QuestionSettingsLike) {
  const labels = optionValues(settings);
  if (typeof value !== 'string' || !labels.includes(value)) {
    throw new UnprocessableError(
      `${pyRepr(value)} is not a valid label for label selection question.\nValid labels are: ${pyRepr(labels)}`,
    );
  }
  return value;
}

function checkMultiLabel(value: unknown, settings: QuestionSettingsLike) {
  if (!Array.isArray(value)) {
    throw new UnprocessableError(`multi label selection questions expects a list of values, found ${pyClass(value)}`);
  }
  if (value.length === 0) throw new UnprocessableError('multi label selection questions expects a list of values, found empty list');
  if (new Set(value.map(identity)).size !== value.length) {
    throw new UnprocessableError('multi label selection questions expect a list of unique values, but duplicates were found');
  }
  const labels = optionValues(settings);
  const invalid = pySorted(unique(value.filter((v) => typeof v !== 'string' || !labels.includes(v))));
  if (invalid.length > 0) {
    throw new UnprocessableError(
      `${pyRepr(invalid)} are not valid labels for multi label selection question.\nValid labels are: ${pyRepr(labels)}`,
    );
  }
  return value;
}

function checkRating(value: unknown, settings: QuestionSettingsLike) {
  const ratings = optionValues(settings);
  // Strict int: "3" and true are refused (contract §3.7).
  if (typeof value !== 'number' || !Number.isInteger(value) || !ratings.includes(value)) {
    throw new UnprocessableError(`${pyRepr(value)} is not a valid rating for rating question.\nValid ratings are: ${pyRepr(ratings)}`);
  }
  return value;
}

interface RankingItem {
  value: string;
  rank: number | null;
}

function checkRanking(value: unknown, settings: QuestionSettingsLike, status: ValueCheckOptions['status']) {
  if (!Array.isArray(value)) throw new UnprocessableError(`ranking question expects a list of values, found ${pyClass(value)}`);
  const items: RankingItem[] = value.map((item) => {
    const entry = item as { value?: unknown; rank?: unknown } | null;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry) || typeof entry.value !== 'string') {
      throw new UnprocessableError(`ranking question expects a list of values with 'value' and 'rank', found ${pyRepr(item)}`);
    }
    const rank = entry.rank ?? null;
    if (rank !== null && (typeof rank !== 'number' || !Number.isInteger(rank))) {
      throw new UnprocessableError(`ranking question expects integer ranks, found ${pyRepr(rank)}`);
    }
    return { value: entry.value, rank };
  });
  const available = optionValues(settings);
  if (status === 'submitted') {
    if (items.length !== available.length) {
      throw new UnprocessableError(
        `ranking question expects a list containing ${available.length} values, found a list of ${items.length} values`,
      );
    }
    const ranks = available.map((_, i) => i + 1);
    const invalidRanks = pySorted(unique(items.map((i) => i.rank).filter((r) => r === null || !ranks.includes(r))));
    if (invalidRanks.length > 0) {
      throw new UnprocessableError(`${pyRepr(invalidRanks)} are not valid ranks for ranking question.\nValid ranks are: ${pyRepr(ranks)}`);
    }
  }
  const invalidValues = pySorted(unique(items.map((i) => i.value).filter((v) => !available.includes(v))));
  if (invalidValues.length > 0) {
    throw new UnprocessableError(
      `${pyRepr(invalidValues)} are not valid values for ranking question.\nValid values are: ${pyRepr(available)}`,
    );
  }
  if (new Set(items.map((i) => i.value)).size !== items.length) {
    throw new UnprocessableError('ranking question expects a list of unique values, but duplicates were found');
  }
  return items;
}

interface SpanItem {
  label: string;
  start: number;
  end: number;
}

function checkSpans(value: unknown, settings: QuestionSettingsLike, recordFields: Record<string, unknown>) {
  if (!Array.isArray(value)) throw new UnprocessableError(`span question expects a list of values, found ${pyClass(value)}`);
  if (value.length > SPAN_MAX_ITEMS) {
    throw new UnprocessableError(`span question expects a list of at most ${SPAN_MAX_ITEMS} values, found ${value.length}`);
  }
  const spans: SpanItem[] = value.map((item) => {
    const entry = item as { label?: unknown; start?: unknown; end?: unknown } | null;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry) || typeof entry.label !== 'string') {
      throw new UnprocessableError(`span question expects a list of values with 'label', 'start' and 'end', found ${pyRepr(item)}`);
    }
    const { start, end } = entry;
    if (typeof start !== 'number' || !Number.isInteger(start) || start < 0) {
      throw new UnprocessableError("span question response value 'start' must be an integer greater than or equal to 0");
    }
    if (typeof end !== 'number' || !Number.isInteger(end) || end < 1) {
      throw new UnprocessableError("span question response value 'end' must be an integer greater than or equal to 1");
    }
    if (end <= start) throw new UnprocessableError("span question response value 'end' must have a value greater than 'start'");
    return { label: entry.label, start, end };
  });
  const field = settings.field ?? '';
  const text = recordFields[field];
  if (typeof text !== 'string') throw new UnprocessableError(`span question requires record to have field \`${field}\``);
  // Contract §0: lengths in Unicode code points, as Python's len().
  const length = codePointLength(text);
  for (const span of spans) {
    if (span.start > length - 1) {
      throw new UnprocessableError(
        `span question response value \`start\` must have a value lower than record field \`${field}\` length that is \`${length}\``,
      );
    }
    if (span.end > length) {
      throw new UnprocessableError(
        `span question response value \`end\` must have a value lower or equal than record field \`${field}\` length that is \`${length}\``,
      );
    }
  }
  const labels = optionValues(settings);
  for (const span of spans) {
    if (!labels.includes(span.label)) {
      throw new UnprocessableError(`undefined label '${span.label}' for span question.\nValid labels are: ${pyRepr(labels)}`);
    }
  }
  if (!settings.allow_overlapping) {
    for (let i = 0; i < spans.length; i++) {
      for (let j = 0; j < spans.length; j++) {
        if (i !== j && spans[i].start < spans[j].end && spans[i].end > spans[j].start) {
          throw new UnprocessableError(`overlapping values found between spans at index idx=${i} and idx=${j}`);
        }
      }
    }
  }
  return spans;
}

/** Python `len(str)`: code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

const identity = (v: unknown) => (typeof v === 'string' ? `s:${v}` : `j:${JSON.stringify(v)}`);

function unique<T>(values: T[]): T[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = identity(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Python `sorted()` for homogeneous lists; None sorts first so mixed rank lists stay printable. */
function pySorted<T>(values: T[]): T[] {
  return [...values].sort((a, b) => {
    if (a === b) return 0;
    if (a === null) return -1;
    if (b === null) return 1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    const sa = String(a);
    const sb = String(b);
    return sa < sb ? -1 : sa > sb ? 1 : 0;
  });
}
