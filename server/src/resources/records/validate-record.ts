import type { SuggestionCreate, UserResponseCreate } from '@scholia/shared/contract';
import { UnprocessableError } from '../../errors.js';
import { pyRepr, pyStr } from '../../lib/python-repr.js';
import { validateResponse, type ResponseStatus, type ResponseValuesInput } from '../responses/validate-response.js';
import { validateSuggestion, type CheckedSuggestion } from '../suggestions/validate-suggestion.js';
import type { MetadataPropertyForCheck, RecordContext } from './record-context.js';

/**
 * Record checks of contract §6.3 (and §3.4 metadata, §3.8 suggestions). Each throws
 * UnprocessableError with the reference's reason; bulk callers prefix the record position.
 */

const IMAGE_WEB_URL_MAX_LENGTH = 2038;
const IMAGE_DATA_URL_MAX_LENGTH = 5_000_000;
const IMAGE_MIME_TYPES = new Set(['image/avif', 'image/gif', 'image/ico', 'image/jpeg', 'image/jpg', 'image/png', 'image/svg', 'image/webp']);
const CHAT_MAX_MESSAGES = 500;

/** Checks a full `fields` object and returns it as stored (text numbers become strings). */
export function checkFields(fields: unknown, context: RecordContext): Record<string, unknown> {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields) || Object.keys(fields).length === 0) {
    throw new UnprocessableError('fields cannot be empty');
  }
  const input = fields as Record<string, unknown>;
  for (const field of context.fields) {
    if (field.required && (input[field.name] === undefined || input[field.name] === null)) {
      throw new UnprocessableError(`missing required value for field: ${pyRepr(field.name)}`);
    }
  }
  const known = new Set(context.fields.map((f) => f.name));
  const extra = Object.keys(input).filter((name) => !known.has(name));
  if (extra.length > 0) throw new UnprocessableError(`found fields values for non configured fields: ${pyRepr(extra)}`);
  let stored = input;
  for (const field of context.fields) {
    const value = input[field.name];
    if (value === undefined || value === null) continue;
    switch (field.type) {
      case 'text':
        if (typeof value === 'number') {
          // Contract §3.6: numbers are coerced to strings for text fields.
          if (stored === input) stored = { ...input };
          stored[field.name] = String(value);
        } else if (typeof value !== 'string') {
          throw new UnprocessableError(`text field ${pyRepr(field.name)} value must be a string`);
        }
        break;
      case 'image':
        if (!isValidImageUrl(value)) throw new UnprocessableError(`image field ${pyRepr(field.name)} has an invalid URL value`);
        break;
      case 'chat':
        if (!isChat(value)) throw new UnprocessableError(`chat field ${pyRepr(field.name)} value must be a list of messages`);
        break;
      case 'custom':
        if (typeof value !== 'object' || Array.isArray(value)) {
          throw new UnprocessableError(`custom field ${pyRepr(field.name)} value must be a dictionary`);
        }
        break;
      default:
        break;
    }
  }
  return stored;
}

function isValidImageUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const colon = value.indexOf(':');
  const scheme = colon > 0 ? value.slice(0, colon).toLowerCase() : '';
  if (scheme === 'http' || scheme === 'https') {
    if (value.length > IMAGE_WEB_URL_MAX_LENGTH) return false;
    // urlparse: netloc after `//`, then a non-empty path.
    const match = /^[a-zA-Z]+:\/\/([^/?#]+)([^?#]*)/.exec(value);
    return !!match && match[1].length > 0 && match[2].length > 0;
  }
  if (scheme === 'data') {
    if (value.length > IMAGE_DATA_URL_MAX_LENGTH) return false;
    const rest = value.slice(colon + 1);
    const comma = rest.indexOf(',');
    if (rest.length === 0 || comma < 0) return false;
    const mime = rest.slice(0, comma).split(';')[0].trim().toLowerCase();
    return IMAGE_MIME_TYPES.has(mime);
  }
  return false;
}

function isChat(value: unknown): boolean {
  if (!Array.isArray(value) || value.length > CHAT_MAX_MESSAGES) return false;
  return value.every((m) => {
    if (!m || typeof m !== 'object' || Array.isArray(m)) return false;
    const { role, content } = m as { role?: unknown; content?: unknown };
    return (
      typeof role === 'string' && role.length >= 1 && role.length <= 20 &&
      typeof content === 'string' && content.length >= 1 && content.length <= 20_000
    );
  });
}

/** Contract §3.4, checked for non-null values; keys without a property need allow_extra_metadata. */
export function checkMetadata(metadata: Record<string, unknown> | null | undefined, context: RecordContext): void {
  if (!metadata) return;
  for (const [name, value] of Object.entries(metadata)) {
    const property = context.metadataProperties.get(name);
    if (property && value !== null && value !== undefined) {
      const reason = metadataProblem(property.settings, value);
      if (reason) throw new UnprocessableError(`metadata is not valid: '${name}' metadata property validation failed because ${reason}`);
    } else if (!property && !context.dataset.allow_extra_metadata) {
      throw new UnprocessableError(
        `metadata is not valid: '${name}' metadata property does not exists for dataset '${context.dataset.id}' and extra metadata is not allowed for this dataset`,
      );
    }
  }
}

function metadataProblem(settings: MetadataPropertyForCheck['settings'], value: unknown): string | undefined {
  if (settings.type === 'terms') {
    if (!settings.values) return undefined;
    const allowed = settings.values;
    for (const term of Array.isArray(value) ? value : [value]) {
      if (!allowed.some((a) => a === term)) return `'${pyStr(term)}' is not an allowed term.`;
    }
    return undefined;
  }
  if (settings.type === 'integer' && (typeof value !== 'number' || !Number.isInteger(value))) return `'${pyStr(value)}' is not an integer.`;
  // Contract §0: a JS server cannot tell 5 from 5.0, so any number is a float.
  if (settings.type === 'float' && typeof value !== 'number') return `'${pyStr(value)}' is not a float.`;
  const number = value as number;
  if (settings.min !== null && settings.min !== undefined && number < settings.min) {
    return `'${pyStr(number)}' is less than the minimum value of '${pyStr(settings.min)}'.`;
  }
  if (settings.max !== null && settings.max !== undefined && number > settings.max) {
    return `'${pyStr(number)}' is greater than the maximum value of '${pyStr(settings.max)}'.`;
  }
  return undefined;
}

export interface CheckedVector {
  vectorSettingsId: string;
  value: number[];
}

/** Known vector name and exact dimensions (contract §6.3). */
export function checkVectors(vectors: Record<string, number[]> | null | undefined, context: RecordContext): CheckedVector[] {
  if (!vectors) return [];
  const checked: CheckedVector[] = [];
  for (const [name, value] of Object.entries(vectors)) {
    const settings = context.vectorSettings.get(name);
    if (!settings) {
      throw new UnprocessableError(
        `record does not have valid vectors: vector with name=${name} does not exist for dataset_id=${context.dataset.id}`,
      );
    }
    if (value.length !== settings.dimensions) {
      throw new UnprocessableError(
        `record does not have valid vectors: vector value for vector name=${name} must have ${settings.dimensions} elements, got ${value.length} elements`,
      );
    }
    checked.push({ vectorSettingsId: settings.id, value });
  }
  return checked;
}

/** Suggestions of a record payload: known question, one per question, valid value and score. */
export function checkSuggestions(
  suggestions: SuggestionCreate[] | null | undefined,
  context: RecordContext,
  recordFields: Record<string, unknown>,
): CheckedSuggestion[] {
  if (!suggestions || suggestions.length === 0) return [];
  try {
    if (new Set(suggestions.map((s) => s.question_id)).size !== suggestions.length) {
      throw new UnprocessableError('found duplicate suggestions question IDs');
    }
    return suggestions.map((suggestion) => {
      const question = context.questionsById.get(suggestion.question_id);
      if (!question) throw new UnprocessableError(`question id=${suggestion.question_id} does not exists`);
      return validateSuggestion(suggestion, question, recordFields);
    });
  } catch (error) {
    if (error instanceof UnprocessableError) throw new UnprocessableError(`record does not have valid suggestions: ${error.message}`);
    throw error;
  }
}

export interface CheckedResponse {
  user_id: string;
  status: ResponseStatus;
  values: ResponseValuesInput | null;
}

/** Responses embedded in a record: the user must exist, values follow §3.7. */
export function checkResponses(
  responses: UserResponseCreate[] | null | undefined,
  context: RecordContext,
  recordFields: Record<string, unknown>,
  existingUserIds: Set<string>,
): CheckedResponse[] {
  if (!responses || responses.length === 0) return [];
  try {
    return responses.map((response) => {
      if (!existingUserIds.has(response.user_id)) throw new UnprocessableError(`user with id ${response.user_id} not found`);
      const values = validateResponse(response, context.questions, recordFields);
      return { user_id: response.user_id, status: response.status, values };
    });
  } catch (error) {
    if (error instanceof UnprocessableError) throw new UnprocessableError(`record does not have valid responses: ${error.message}`);
    throw error;
  }
}
