import { Type } from '@sinclair/typebox';
import { SearchFilter, type SearchBody } from '@scholia/shared/contract';
import { RequestValidationError } from '../../errors.js';

/** The schema of the `filters` query parameter once parsed: a search body's `filters` (contract §4.2). */
export const AgreementFilters = Type.Object({ and: Type.Array(SearchFilter, { minItems: 1, maxItems: 50 }) });

/** A compiled check of AgreementFilters (the server's own body validator), with its errors after a failure. */
export interface FiltersCheck {
  (value: unknown): boolean;
  errors?: { instancePath?: string; message?: string }[] | null;
}

const FORM = 'filters must be the JSON of a search body\'s filters: {"and": [{"type": "terms", "scope": {...}, "values": [...]}]}';

/** The `filters` query parameter as a search body, or a 422 naming what is wrong. */
export function parseAgreementFilters(raw: string | undefined, check: FiltersCheck): SearchBody {
  if (raw === undefined || raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw RequestValidationError.valueError(['query', 'filters'], FORM);
  }
  if (!check(parsed)) {
    const first = check.errors?.[0];
    throw RequestValidationError.valueError(['query', 'filters'], `${FORM}; at ${first?.instancePath || '/'}: ${first?.message ?? 'invalid'}`);
  }
  return { filters: parsed as SearchBody['filters'] };
}
