import { describe, expect, it } from 'vitest';
import { attachmentFilename } from './attachment-filename.js';

describe('attachmentFilename', () => {
  it('keeps a plain dataset name', () => {
    expect(attachmentFilename('reviews_2024-v1', 'csv')).toBe('reviews_2024-v1.csv');
  });

  it('replaces quotes, separators, control characters and non-ASCII letters', () => {
    expect(attachmentFilename('a"b\\c/d\r\ne é', 'jsonl')).toBe('a_b_c_d_e_.jsonl');
  });

  it('never starts with a dot and never comes out empty', () => {
    expect(attachmentFilename('../etc', 'csv')).toBe('etc.csv');
    expect(attachmentFilename('"""', 'csv')).toBe('records.csv');
  });
});
