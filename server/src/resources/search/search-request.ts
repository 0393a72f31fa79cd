import type { SearchBody, SearchFilter, SearchScope, SearchSort } from '@scholia/shared/contract';
import { RECORD_SCOPE_PROPERTIES, SUGGESTION_SCOPE_PROPERTIES } from '@scholia/shared/contract';
import { RequestValidationError, UnprocessableError, type ValidationIssue } from '../../errors.js';
import { normalizeTimestamp } from '../../lib/time.js';
import { fromJson } from '../../storage/json.js';
import type {
  RecordColumn,
  RecordFilter,
  ResponseStatusName,
  SortKey,
  SuggestionColumn,
  ValueMatch,
} from '../../storage/repositories/search.repository.js';
import type { DatasetRow, FieldRow, MetadataPropertyRow, QuestionRow, VectorSettingsRow } from '../../storage/tables.js';

/**
 * Turns a search body (contract §4.2) into resolved filters and sort keys: names become ids,
 * each scope's keys and each filter's bounds are checked, with the contract's error bodies.
 */

export interface DatasetSettings {
  dataset: DatasetRow;
  fields: FieldRow[];
  questions: QuestionRow[];
  metadataProperties: MetadataPropertyRow[];
  vectorSettings: VectorSettingsRow[];
}

/** Whose responses count: `/me` = the caller's only. */
export interface SearchPerspective {
  userId?: string;
  /** Owners and admins: the record status `validated` (Scholia extension) matches validated records. */
  seesValidation?: boolean;
}

type Location = (string | number)[];

type ResolvedScope =
  | { on: 'record'; column: RecordColumn }
  | { on: 'metadata'; property: MetadataPropertyRow }
  | { on: 'suggestion'; question: QuestionRow; column: SuggestionColumn }
  | { on: 'response-value'; question: QuestionRow }
  | { on: 'response-status' };

/** Filters of `filters.and`, resolved. Metadata filters still need their `listValues` probe. */
export function resolveFilters(
  body: SearchBody,
  settings: DatasetSettings,
  perspective: SearchPerspective,
): RecordFilter[] {
  const filters = body.filters?.and ?? [];
  return filters.map((filter, index) => resolveFilter(filter, ['body', 'filters', 'and', index], settings, perspective));
}

export function resolveSort(body: SearchBody, settings: DatasetSettings, perspective: SearchPerspective): SortKey[] {
  return (body.sort ?? []).map((entry: SearchSort, index) => {
    const scope = resolveScope(entry.scope, ['body', 'sort', index, 'scope'], settings);
    const order = entry.order ?? 'asc';
    switch (scope.on) {
      case 'record':
        return { on: 'record', column: scope.column, order };
      case 'metadata':
        return { on: 'metadata', name: scope.property.name, order };
      case 'suggestion':
        return { on: 'suggestion', questionId: scope.question.id, column: scope.column, order };
      case 'response-value':
        return { on: 'response-value', questionName: scope.question.name, userId: perspective.userId, order };
      case 'response-status':
        return { on: 'response-status', userId: perspective.userId, order };
    }
  });
}

function resolveFilter(
  filter: SearchFilter,
  loc: Location,
  settings: DatasetSettings,
  perspective: SearchPerspective,
): RecordFilter {
  const raw = resolveMatch(filter, loc);
  const scope = resolveScope(filter.scope, [...loc, 'scope'], settings);
  const match = raw.kind === 'range' && isNumericScope(scope) ? numericRange(raw, loc) : raw;
  switch (scope.on) {
    case 'record':
      return {
        on: 'record',
        column: scope.column,
        match: recordMatch(scope.column, match),
        ...(matchesValidated(scope.column, match, perspective) ? { orValidated: true } : {}),
      };
    case 'metadata':
      return { on: 'metadata', name: scope.property.name, match, listValues: false };
    case 'suggestion':
      return { on: 'suggestion', questionId: scope.question.id, column: scope.column, match };
    case 'response-value':
      return { on: 'response-value', questionName: scope.question.name, userId: perspective.userId, match };
    case 'response-status': {
      // contract §4.2: draft|submitted|discarded, plus `pending` = no response; OR-combined
      const values = match.kind === 'terms' ? match.values : [];
      const statuses = values.filter((v): v is ResponseStatusName => v === 'draft' || v === 'submitted' || v === 'discarded');
      return { on: 'response-status', statuses: [...new Set(statuses)], pending: values.includes('pending'), userId: perspective.userId };
    }
  }
}

function resolveScope(scope: SearchScope, loc: Location, settings: DatasetSettings): ResolvedScope {
  const datasetId = settings.dataset.id;
  switch (scope.entity) {
    case 'record': {
      const property = scope.property;
      if (property === undefined || property === null) throw missing([...loc, 'property']);
      if (!(RECORD_SCOPE_PROPERTIES as readonly string[]).includes(property)) {
        throw literal([...loc, 'property'], RECORD_SCOPE_PROPERTIES);
      }
      return { on: 'record', column: property as RecordColumn };
    }
    case 'metadata': {
      const name = scope.metadata_property;
      if (name === undefined || name === null) throw missing([...loc, 'metadata_property']);
      checkNameLength(name, [...loc, 'metadata_property']);
      const property = settings.metadataProperties.find((p) => p.name === name);
      if (!property) throw new UnprocessableError(`MetadataProperty not found filtering by name=${name}, dataset_id=${datasetId}`);
      return { on: 'metadata', property };
    }
    case 'suggestion': {
      const name = scope.question;
      if (name === undefined || name === null) throw missing([...loc, 'question']);
      const column = scope.property ?? 'value';
      if (!(SUGGESTION_SCOPE_PROPERTIES as readonly string[]).includes(column)) {
        throw literal([...loc, 'property'], SUGGESTION_SCOPE_PROPERTIES);
      }
      return { on: 'suggestion', question: findQuestion(settings, name), column: column as SuggestionColumn };
    }
    case 'response': {
      const property = scope.property ?? null;
      if (property !== null && property !== 'status') throw literal([...loc, 'property'], ['status']);
      if (property === 'status') return { on: 'response-status' };
      const name = scope.question;
      if (name === undefined || name === null) {
        throw RequestValidationError.valueError(loc, "Either 'question' or 'property' must be provided");
      }
      return { on: 'response-value', question: findQuestion(settings, name) };
    }
  }
}

function findQuestion(settings: DatasetSettings, name: string): QuestionRow {
  const question = settings.questions.find((q) => q.name === name);
  if (!question) throw new UnprocessableError(`Question not found filtering by name=${name}, dataset_id=${settings.dataset.id}`);
  return question;
}

/**
 * Whether the scope holds numbers: integer and float metadata, suggestion scores, rating values.
 * Argilla's search engine reads a string bound on such a property as a number.
 */
function isNumericScope(scope: ResolvedScope): boolean {
  switch (scope.on) {
    case 'metadata':
      return ['integer', 'float'].includes(fromJson<{ type: string }>(scope.property.settings).type);
    case 'suggestion':
      return scope.column === 'score' || (scope.column === 'value' && isRating(scope.question));
    case 'response-value':
      return isRating(scope.question);
    default:
      return false;
  }
}

const isRating = (question: QuestionRow): boolean => fromJson<{ type: string }>(question.settings).type === 'rating';

const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A range on a numeric scope: numeric string bounds become their number, other text is refused. */
function numericRange(range: Extract<ValueMatch, { kind: 'range' }>, loc: Location): ValueMatch {
  return { kind: 'range', ge: numericBound(range.ge, [...loc, 'ge']), le: numericBound(range.le, [...loc, 'le']) };
}

function numericBound(bound: number | string | undefined, loc: Location): number | undefined {
  if (typeof bound !== 'string') return bound;
  const text = bound.trim();
  if (!NUMERIC_TEXT.test(text)) {
    throw issue({ type: 'float_parsing', loc, msg: 'Input should be a valid number, unable to parse string as a number' });
  }
  return Number(text);
}

function resolveMatch(filter: SearchFilter, loc: Location): ValueMatch {
  if (filter.type === 'terms') {
    const values = filter.values;
    if (values === undefined || values === null) throw missing([...loc, 'values']);
    if (values.length < 1) {
      throw issue({ type: 'too_short', loc: [...loc, 'values'], msg: `List should have at least 1 item after validation, not ${values.length}` });
    }
    if (values.length > 250) {
      throw issue({ type: 'too_long', loc: [...loc, 'values'], msg: `List should have at most 250 items after validation, not ${values.length}` });
    }
    // contract §4.2: numbers are coerced to strings; string forms are compared
    return { kind: 'terms', values: values.map((v) => String(v)) };
  }
  const ge = filter.ge ?? undefined;
  const le = filter.le ?? undefined;
  if (ge === undefined && le === undefined) {
    throw RequestValidationError.valueError(loc, "At least one of 'ge' or 'le' must be provided");
  }
  if (ge !== undefined && le !== undefined && typeof ge === typeof le && ge > le) {
    throw RequestValidationError.valueError(loc, `'ge' (${ge}) must be lower or equal than 'le' (${le})`);
  }
  return { kind: 'range', ge, le };
}

/** Timestamps are stored in one fixed-width form; client dates are normalised to it. */
/** A status terms filter naming `validated`, from someone who may see validations (else the term matches nothing). */
function matchesValidated(column: RecordColumn, match: ValueMatch, perspective: SearchPerspective): boolean {
  return column === 'status' && match.kind === 'terms' && match.values.includes('validated') && perspective.seesValidation === true;
}

function recordMatch(column: RecordColumn, match: ValueMatch): ValueMatch {
  if (column !== 'inserted_at' && column !== 'updated_at') return match;
  const normalize = (value: string | number) => (typeof value === 'string' ? (normalizeTimestamp(value) ?? value) : value);
  if (match.kind === 'terms') return { kind: 'terms', values: match.values.map((v) => String(normalize(v))) };
  return {
    kind: 'range',
    ge: match.ge === undefined ? undefined : normalize(match.ge),
    le: match.le === undefined ? undefined : normalize(match.le),
  };
}

/** `query.text.field` must be a field of the dataset. */
export function findTextField(settings: DatasetSettings, name: string): FieldRow {
  const field = settings.fields.find((f) => f.name === name);
  if (!field) throw new UnprocessableError(`Field \`${name}\` not found in dataset \`${settings.dataset.id}\`.`);
  return field;
}

export function findVectorSettings(settings: DatasetSettings, name: string): VectorSettingsRow {
  const vector = settings.vectorSettings.find((v) => v.name === name);
  if (!vector) throw new UnprocessableError(`Vector \`${name}\` not found in dataset \`${settings.dataset.id}\`.`);
  return vector;
}

function checkNameLength(name: string, loc: Location) {
  if (name.length < 1) throw issue({ type: 'string_too_short', loc, msg: 'String should have at least 1 character' });
  if (name.length > 200) throw issue({ type: 'string_too_long', loc, msg: 'String should have at most 200 characters' });
}

const issue = (entry: ValidationIssue) => new RequestValidationError([entry]);
const missing = (loc: Location) => issue({ type: 'missing', loc, msg: 'Field required' });
const literal = (loc: Location, allowed: readonly string[]) =>
  issue({ type: 'literal_error', loc, msg: `Input should be ${allowed.map((a) => `'${a}'`).join(', ')}` });
