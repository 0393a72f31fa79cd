import { presentTimestamp } from '../../lib/time.js';
import { fromFlag } from '../../storage/json.js';
import type { QuestionRow } from '../../storage/tables.js';
import { readQuestionSettings } from './question-settings.js';

/** Question JSON (contract §3.3), plus the Scholia extension `visible_for_annotators`. */
export function presentQuestion(row: QuestionRow) {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    required: fromFlag(row.required),
    settings: readQuestionSettings(row.settings),
    visible_for_annotators: fromFlag(row.visible_for_annotators),
    dataset_id: row.dataset_id,
    inserted_at: presentTimestamp(row.inserted_at),
    updated_at: presentTimestamp(row.updated_at),
  };
}
