import type { QuestionCreateBody, QuestionUpdateBody } from '@scholia/shared/contract';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { pyRepr } from '../../lib/python-repr.js';
import { nowTimestamp } from '../../lib/time.js';
import type { Database } from '../../storage/dialect.js';
import { fromFlag, toFlag, toJson } from '../../storage/json.js';
import {
  deleteQuestion as deleteQuestionRow,
  findQuestionById,
  findQuestionByName,
  insertQuestion,
  listFields,
  listQuestions,
  updateQuestion as updateQuestionRow,
} from '../../storage/repositories/dataset-settings.repository.js';
import type { DatasetRow, QuestionRow } from '../../storage/tables.js';
import {
  applyQuestionSettingsUpdate,
  parseQuestionSettingsCreate,
  readQuestionSettings,
  type SpanQuestionSettings,
} from './question-settings.js';

/**
 * A required question must be answered to submit, so an annotator who could not see it could
 * never submit: a required question is never hidden.
 */
function checkRequiredVisible(required: boolean, visible: boolean): void {
  if (required && !visible) throw new UnprocessableError('A required question must be visible for annotators.');
}

export async function getQuestionOrThrow(database: Database, id: string): Promise<QuestionRow> {
  const question = await findQuestionById(database.db, id);
  if (!question) throw new NotFoundError(`Question with id \`${id}\` not found`);
  return question;
}

/**
 * Contract §2.6 check order: duplicate name (409), then draft-only (422), then span rules
 * (the field exists and no other span question uses it).
 */
export async function createQuestion(database: Database, dataset: DatasetRow, body: QuestionCreateBody): Promise<QuestionRow> {
  const { db } = database;
  const settings = parseQuestionSettingsCreate(body.settings as Record<string, unknown>);
  if (await findQuestionByName(db, dataset.id, body.name)) {
    throw new ConflictError(`Question with name \`${body.name}\` already exists for dataset with id \`${dataset.id}\``);
  }
  if (dataset.status === 'ready') throw new UnprocessableError('questions cannot be created for a published dataset');
  const visible = body.visible_for_annotators ?? true;
  checkRequiredVisible(body.required ?? false, visible);
  if (settings.type === 'span') {
    const fieldNames = (await listFields(db, dataset.id)).map((f) => f.name);
    if (!fieldNames.includes(settings.field)) {
      throw new UnprocessableError(`'${settings.field}' is not a valid field name.\nValid field names are ${pyRepr(fieldNames)}`);
    }
    for (const question of await listQuestions(db, dataset.id)) {
      const other = readQuestionSettings(question.settings);
      if (other.type === 'span' && (other as SpanQuestionSettings).field === settings.field) {
        throw new UnprocessableError(`'${settings.field}' is already used by span question with id '${question.id}'`);
      }
    }
  }
  const now = nowTimestamp();
  return insertQuestion(db, {
    id: newId(),
    dataset_id: dataset.id,
    name: body.name,
    title: body.title,
    description: body.description ?? null,
    required: toFlag(body.required ?? false),
    settings: toJson(settings),
    visible_for_annotators: toFlag(visible),
    inserted_at: now,
    updated_at: now,
  });
}

/**
 * `title`, `description` (null clears), settings per the option rules of contract §3.3, and
 * `visible_for_annotators` (omitted keeps it).
 */
export async function updateQuestion(database: Database, question: QuestionRow, body: QuestionUpdateBody): Promise<QuestionRow> {
  const changes: Partial<Pick<QuestionRow, 'title' | 'description' | 'settings' | 'visible_for_annotators' | 'updated_at'>> = {};
  if (body.visible_for_annotators !== undefined) {
    checkRequiredVisible(fromFlag(question.required), body.visible_for_annotators);
    changes.visible_for_annotators = toFlag(body.visible_for_annotators);
  }
  if (body.settings !== undefined) {
    const settings = applyQuestionSettingsUpdate(readQuestionSettings(question.settings), body.settings as Record<string, unknown>);
    changes.settings = toJson(settings);
  }
  if (body.title !== undefined) changes.title = body.title;
  if (body.description !== undefined) changes.description = body.description;
  changes.updated_at = nowTimestamp();
  await updateQuestionRow(database.db, question.id, changes);
  return { ...question, ...changes };
}

export async function deleteQuestion(database: Database, dataset: DatasetRow, question: QuestionRow): Promise<QuestionRow> {
  if (dataset.status === 'ready') throw new UnprocessableError('questions cannot be deleted for a published dataset');
  await deleteQuestionRow(database.db, question.id);
  return question;
}
