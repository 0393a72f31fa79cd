import { fromFlag } from '../../storage/json.js';
import type { QuestionRow, UserRow } from '../../storage/tables.js';

/**
 * Scholia extension (spec §3 Question "visible for annotators"): admins and owners see every
 * question, annotators only the visible ones, as for metadata properties (contract §1.5).
 */
export function canSeeQuestion(user: UserRow, question: Pick<QuestionRow, 'visible_for_annotators'>): boolean {
  return user.role !== 'annotator' || fromFlag(question.visible_for_annotators);
}
