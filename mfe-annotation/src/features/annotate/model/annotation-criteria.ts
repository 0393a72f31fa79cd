import type { AnnotationSearchBody, SearchFilter, SearchFilterValue, SearchSort } from '@scholia/shared/api';
import type { RecordStatusFilter } from './types.js';
import { STATUS_FILTERS } from './types.js';

/** One metadata, response or suggestion condition: terms (`values`) or range (`ge`/`le`). */
export interface Condition {
  kind: 'metadata' | 'response' | 'suggestion';
  /** Metadata property name or question name. */
  name: string;
  /** Suggestion property filtered on. */
  property?: 'value' | 'score' | 'agent';
  values?: SearchFilterValue[];
  ge?: number;
  le?: number;
}

export interface SortRule {
  /** `inserted_at`, `updated_at`, `metadata:<name>` or `suggestion-score:<question>`. */
  by: string;
  order: 'asc' | 'desc';
}

export interface Similarity {
  vector: string;
  record: string;
  order: 'most_similar' | 'least_similar';
  limit: number;
}

/** What selects the queue's records; every key lives in the URL. */
export interface Criteria {
  status: RecordStatusFilter;
  q: string;
  field: string;
  conditions: Condition[];
  sort: SortRule[];
  similar?: Similarity;
}

/** `review`: owners' and admins' queue of records by overall status (review mode). */
export type ViewMode = 'focus' | 'bulk' | 'review';

export interface ViewState {
  mode: ViewMode;
  page: number;
  /** Bulk page size. */
  size: number;
}

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const SIMILARITY_LIMITS = [50, 100, 200, 500, 1000] as const;

export const DEFAULT_CRITERIA: Criteria = { status: 'pending', q: '', field: '', conditions: [], sort: [] };

function readJson<T>(raw: string | null, fallback: T): T {
  if (!raw) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A hand-edited or truncated URL must not break the screen: keep only well-formed entries. */
function readConditions(raw: string | null): Condition[] {
  const value = readJson<unknown>(raw, []);
  if (!Array.isArray(value)) return [];
  return value.filter((c): c is Condition => isObject(c) && ['metadata', 'response', 'suggestion'].includes(c.kind as string) && typeof c.name === 'string');
}

function readSort(raw: string | null): SortRule[] {
  const value = readJson<unknown>(raw, []);
  if (!Array.isArray(value)) return [];
  return value.filter((r): r is SortRule => isObject(r) && typeof r.by === 'string' && (r.order === 'asc' || r.order === 'desc'));
}

function readSimilarity(raw: string | null): Similarity | undefined {
  const value = readJson<unknown>(raw, undefined);
  if (!isObject(value) || typeof value.vector !== 'string' || typeof value.record !== 'string') return undefined;
  const order = value.order === 'least_similar' ? 'least_similar' : 'most_similar';
  const limit = (SIMILARITY_LIMITS as readonly unknown[]).includes(value.limit) ? (value.limit as number) : SIMILARITY_LIMITS[0];
  return { vector: value.vector, record: value.record, order, limit };
}

/** URL → criteria and view; unknown or broken values fall back to defaults. */
export function readUrlState(params: URLSearchParams): { criteria: Criteria; view: ViewState } {
  const status = params.get('status') as RecordStatusFilter | null;
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  const size = Number.parseInt(params.get('size') ?? '10', 10);
  return {
    criteria: {
      status: status && STATUS_FILTERS.includes(status) ? status : 'pending',
      q: params.get('q') ?? '',
      field: params.get('field') ?? '',
      conditions: readConditions(params.get('filters')),
      sort: readSort(params.get('sort')),
      similar: readSimilarity(params.get('similar')),
    },
    view: {
      mode: readMode(params.get('mode')),
      page: Number.isFinite(page) && page > 0 ? page : 1,
      size: (PAGE_SIZES as readonly number[]).includes(size) ? size : 10,
    },
  };
}

const readMode = (raw: string | null): ViewMode => (raw === 'bulk' || raw === 'review' ? raw : 'focus');

/** Criteria and view → URL params; defaults are left out so a fresh page has a clean URL. */
export function writeUrlState(criteria: Criteria, view: ViewState): URLSearchParams {
  const params = new URLSearchParams();
  if (view.mode !== 'focus') params.set('mode', view.mode);
  if (view.mode === 'bulk' && view.size !== 10) params.set('size', String(view.size));
  if (view.page !== 1) params.set('page', String(view.page));
  if (criteria.status !== 'pending') params.set('status', criteria.status);
  if (criteria.q) params.set('q', criteria.q);
  if (criteria.q && criteria.field) params.set('field', criteria.field);
  if (criteria.conditions.length) params.set('filters', JSON.stringify(criteria.conditions));
  if (criteria.sort.length) params.set('sort', JSON.stringify(criteria.sort));
  if (criteria.similar) params.set('similar', JSON.stringify(criteria.similar));
  return params;
}

/** A stable key: a new key means a new queue. */
export function criteriaKey(criteria: Criteria): string {
  return JSON.stringify([criteria.status, criteria.q, criteria.field, criteria.conditions, criteria.sort, criteria.similar ?? null]);
}

function conditionToFilter(condition: Condition): SearchFilter | undefined {
  const scope =
    condition.kind === 'metadata'
      ? { entity: 'metadata' as const, metadata_property: condition.name }
      : condition.kind === 'response'
        ? { entity: 'response' as const, question: condition.name }
        : { entity: 'suggestion' as const, question: condition.name, property: condition.property ?? 'value' };
  if (condition.values?.length) return { type: 'terms', scope, values: condition.values };
  if (condition.ge !== undefined || condition.le !== undefined) return { type: 'range', scope, ge: condition.ge ?? null, le: condition.le ?? null };
  return undefined;
}

function sortToScope(rule: SortRule): SearchSort | undefined {
  if (rule.by === 'inserted_at' || rule.by === 'updated_at') return { scope: { entity: 'record', property: rule.by }, order: rule.order };
  const [kind, name] = [rule.by.slice(0, rule.by.indexOf(':')), rule.by.slice(rule.by.indexOf(':') + 1)];
  if (kind === 'metadata' && name) return { scope: { entity: 'metadata', metadata_property: name }, order: rule.order };
  if (kind === 'suggestion-score' && name) return { scope: { entity: 'suggestion', question: name, property: 'score' }, order: rule.order };
  return undefined;
}

/**
 * The search body (contract §4.2, §6.8): always a response-status filter, plus record status
 * pending when filtering pending (spec §4), then text, similarity, conditions and sort.
 */
export function toSearchBody(criteria: Criteria): AnnotationSearchBody {
  const and: SearchFilter[] = [{ type: 'terms', scope: { entity: 'response', property: 'status' }, values: [criteria.status] }];
  if (criteria.status === 'pending') and.push({ type: 'terms', scope: { entity: 'record', property: 'status' }, values: ['pending'] });
  for (const condition of criteria.conditions) {
    const filter = conditionToFilter(condition);
    if (filter) and.push(filter);
  }
  const body: AnnotationSearchBody = { filters: { and } };
  const query: NonNullable<AnnotationSearchBody['query']> = {};
  // A pasted NUL character is refused by the server (422): the words around it are searched.
  const q = criteria.q.replaceAll('\u0000', ' ').trim();
  if (q) query.text = { q, field: criteria.field || null };
  if (criteria.similar) {
    query.vector = { name: criteria.similar.vector, record_id: criteria.similar.record, order: criteria.similar.order, max_results: criteria.similar.limit };
  }
  if (query.text || query.vector) body.query = query;
  const sort = criteria.sort.map(sortToScope).filter((s): s is SearchSort => Boolean(s));
  if (sort.length) body.sort = sort;
  return body;
}

/** True when anything beyond the status narrows the queue (for the empty-state wording). */
export function hasQuery(criteria: Criteria): boolean {
  return Boolean(criteria.q.trim() || criteria.conditions.length || criteria.similar);
}
