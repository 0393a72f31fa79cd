import { RequestValidationError } from '../../errors.js';

/** Which relationships a record reply carries (contract §4.4). */
export interface RecordInclude {
  responses: boolean;
  suggestions: boolean;
  /** false: none; 'all': every vector; a list: only those vector names. */
  vectors: false | 'all' | string[];
}

export const INCLUDE_NOTHING: RecordInclude = { responses: false, suggestions: false, vectors: false };
export const INCLUDE_EVERYTHING: RecordInclude = { responses: true, suggestions: true, vectors: 'all' };

const FORM_ERROR = "'include' query parameter must be of the form 'key1,key2,key3' or 'key:value1,value2,value3'";

/**
 * Parses `include` from a raw query value: repeated params and/or comma lists,
 * `vectors` or `vectors:a,b`. Errors are the contract's 422 bodies.
 */
export function parseRecordInclude(raw: string | string[] | undefined): RecordInclude {
  const include: RecordInclude = { responses: false, suggestions: false, vectors: false };
  for (const value of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
    if (value === '') continue;
    const colon = value.indexOf(':');
    if (colon >= 0) {
      const key = value.slice(0, colon);
      const names = value.slice(colon + 1).split(',').map((n) => n.trim()).filter(Boolean);
      if (key.includes(',') || names.length === 0) throw invalid(FORM_ERROR);
      if (key !== 'vectors') throw invalid(`'${key}' is not a valid value for 'include'`);
      if (include.vectors === 'all') throw invalid("Cannot include all vectors and specific vectors at the same time");
      include.vectors = [...(Array.isArray(include.vectors) ? include.vectors : []), ...names];
      continue;
    }
    for (const key of value.split(',').map((k) => k.trim()).filter(Boolean)) {
      if (key === 'responses') include.responses = true;
      else if (key === 'suggestions') include.suggestions = true;
      else if (key === 'vectors') {
        if (Array.isArray(include.vectors)) throw invalid("Cannot include all vectors and specific vectors at the same time");
        include.vectors = 'all';
      } else throw invalid(`'${key}' is not a valid value for 'include'`);
    }
  }
  return include;
}

function invalid(message: string) {
  return message === FORM_ERROR
    ? new RequestValidationError([{ type: 'value_error', loc: ['query', 'include'], msg: message }])
    : RequestValidationError.valueError(['query', 'include'], message);
}

export const INCLUDE_FORM_ERROR = FORM_ERROR;
