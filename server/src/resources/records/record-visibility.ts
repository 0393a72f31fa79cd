import type { MetadataPropertyRow, QuestionRow, UserRow } from '../../storage/tables.js';
import { canSeeMetadataProperty } from '../metadata-properties/metadata-properties.policy.js';
import { canSeeQuestion } from '../questions/questions.policy.js';

/**
 * The one place that decides which parts of a record's data a caller may read, so every record
 * read (search, GET /records/{id}, suggestions, responses) hides the same things.
 */

/** Questions hidden from the caller (Scholia extension: `visible_for_annotators` false, for annotators). */
export interface HiddenQuestions {
  ids: ReadonlySet<string>;
  names: ReadonlySet<string>;
}

export interface RecordVisibility {
  /** Metadata keys the caller may see; undefined = all (contract §4.3, `/me` for annotators). */
  metadataKeys?: ReadonlySet<string>;
  /** Their suggestions and response values are left out; undefined = none hidden. */
  hiddenQuestions?: HiddenQuestions;
}

/** The questions `user` may not see, or undefined when they see all (owners, admins, most datasets). */
export function hiddenQuestionsFor(user: UserRow, questions: readonly QuestionRow[]): HiddenQuestions | undefined {
  const hidden = questions.filter((q) => !canSeeQuestion(user, q));
  if (hidden.length === 0) return undefined;
  return { ids: new Set(hidden.map((q) => q.id)), names: new Set(hidden.map((q) => q.name)) };
}

/**
 * What `user` may see of a dataset's records, the same on every read an annotator can make
 * (`/me` search, `GET /records/{id}`, suggestions, responses): metadata of visible properties
 * only (contract §4.3) and nothing of hidden questions.
 */
export function recordVisibilityFor(
  user: UserRow,
  settings: { questions: readonly QuestionRow[]; metadataProperties: readonly MetadataPropertyRow[] },
): RecordVisibility {
  return {
    metadataKeys: visibleMetadataKeys(user, settings.metadataProperties),
    hiddenQuestions: hiddenQuestionsFor(user, settings.questions),
  };
}

/**
 * Whose responses `user` may read on a record: an annotator only their own (never another
 * annotator's answers or drafts); owners and admins everyone's (undefined).
 */
export function responsesReadableBy(user: UserRow): string | undefined {
  return user.role === 'annotator' ? user.id : undefined;
}

/**
 * Contract §4.3: owners and admins see every metadata key, extra keys without a property too;
 * annotators only keys of properties visible to them.
 */
function visibleMetadataKeys(user: UserRow, properties: readonly MetadataPropertyRow[]): ReadonlySet<string> | undefined {
  if (user.role !== 'annotator') return undefined;
  return new Set(properties.filter((p) => canSeeMetadataProperty(user, p)).map((p) => p.name));
}

/** Suggestions without those of hidden questions. */
export function visibleSuggestions<T extends { question_id: string }>(rows: T[], hidden: HiddenQuestions | undefined): T[] {
  return hidden ? rows.filter((row) => !hidden.ids.has(row.question_id)) : rows;
}

/**
 * Response values without the keys of hidden questions: an admin may have answered one in an
 * annotator's response, and the annotator must not learn the question from it.
 */
export function visibleResponseValues<V>(values: Record<string, V> | null, hidden: HiddenQuestions | undefined): Record<string, V> | null {
  if (!values || !hidden) return values;
  return Object.fromEntries(Object.entries(values).filter(([name]) => !hidden.names.has(name)));
}
