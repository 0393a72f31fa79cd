/** JSON is written as text and read back as text in both dialects (open-database.ts keeps pg from parsing jsonb). */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

export function fromJson<T>(stored: unknown): T {
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as T;
}

export function fromNullableJson<T>(stored: unknown): T | null {
  return stored === null || stored === undefined ? null : fromJson<T>(stored);
}

export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: unknown): boolean => value === 1 || value === true || value === '1';
