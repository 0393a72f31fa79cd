import { describe, expect, it } from 'vitest';
import { retryWriteConflicts } from './write-conflicts.js';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('retryWriteConflicts', () => {
  it('tries again after lock cycles until the write goes through', async () => {
    let tries = 0;
    const result = await retryWriteConflicts(async () => {
      tries += 1;
      if (tries < 6) throw deadlock();
      return 'written';
    });
    expect(result).toBe('written');
    expect(tries).toBe(6);
  });

  it('gives up after the last attempt with the conflict itself', async () => {
    let tries = 0;
    await expect(retryWriteConflicts(async () => {
      tries += 1;
      throw deadlock();
    }, 3)).rejects.toMatchObject({ code: '40P01' });
    expect(tries).toBe(3);
  });

  it('does not retry other failures', async () => {
    let tries = 0;
    await expect(retryWriteConflicts(async () => {
      tries += 1;
      throw Object.assign(new Error('value too long'), { code: '22001' });
    })).rejects.toThrow('value too long');
    expect(tries).toBe(1);
  });
});
