import type { AnnotationRecord, Field, Question, RecordSuggestion } from '@scholia/shared/api';

export type { AnnotationRecord, Field, Question, RecordSuggestion };

export interface QuestionOption {
  value: string;
  text: string;
  description?: string | null;
}

export interface RankingItem {
  value: string;
  rank: number | null;
}

export interface SpanItem {
  start: number;
  end: number;
  label: string;
}

/** Answer values per question type (spec §3: answers per question type). */
export type AnswerValue = string | number | string[] | RankingItem[] | SpanItem[];

/** The form's answers, keyed by question name; `undefined` = unanswered. */
export type Answers = Record<string, AnswerValue | undefined>;

export type RecordStatusFilter = 'pending' | 'draft' | 'submitted' | 'discarded';

export const STATUS_FILTERS: readonly RecordStatusFilter[] = ['pending', 'draft', 'submitted', 'discarded'];

/** Options of a label, multi-label, ranking or span question; rating values become options. */
export function questionOptions(question: Question): QuestionOption[] {
  const options = (question.settings.options ?? []) as { value: string | number; text?: string; description?: string | null }[];
  return options.map((o) => ({ value: String(o.value), text: o.text ?? String(o.value), description: o.description ?? null }));
}

/** The record's own response: on `/me` search it is `responses[0]` (contract §6.8). */
export function ownResponse(record: AnnotationRecord) {
  return record.responses?.[0];
}

/** pending when there is no response (spec §4 record status). */
export function recordAnswerStatus(record: AnnotationRecord): RecordStatusFilter {
  return ownResponse(record)?.status ?? 'pending';
}
