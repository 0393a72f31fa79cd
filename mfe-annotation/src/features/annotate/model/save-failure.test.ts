import { describe, expect, it } from 'vitest';
import { ApiError } from '@scholia/shared/api';
import { i18next } from '@scholia/shared/i18n';
import { saveFailureReason } from './save-failure.js';

const t = (key: string, options?: Record<string, unknown>) => i18next.t(key, { ns: 'annotation', ...options });

describe('why a save failed', () => {
  it('says it in words for the known statuses, never the server’s English detail', () => {
    const failure = (status: number) => new ApiError({ status, body: { detail: 'missing response value for required question' } });
    expect(saveFailureReason(failure(0), t)).toBe('the server could not be reached');
    expect(saveFailureReason(failure(401), t)).toBe('you are signed out: sign in again');
    expect(saveFailureReason(failure(403), t)).toBe('you may not answer in this dataset');
    expect(saveFailureReason(failure(404), t)).toBe('the record or its answer no longer exists');
    expect(saveFailureReason(failure(422), t)).toBe('the server found the answer incomplete or invalid');
    expect(saveFailureReason(failure(502), t)).toBe('HTTP 502');
    expect(saveFailureReason(new TypeError('x'), t)).toBe('an unexpected error');
  });
});
