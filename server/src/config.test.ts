import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-values.js';
import { readConfig } from './config.js';
import { BULK_BODY_MAX_BYTES } from './lib/work-limits.js';

const MIB = 1024 * 1024;
const largestBodyMib = BULK_BODY_MAX_BYTES / MIB;

describe('bulk body budget settings', () => {
  it('default to one largest body per user and two on the server', () => {
    expect(readConfig({}).bulkBodyBudget).toEqual({ userBytes: BULK_BODY_MAX_BYTES, serverBytes: 2 * BULK_BODY_MAX_BYTES });
  });

  it('are read in MiB', () => {
    const env = { SCHOLIA_BULK_BODIES_MIB: '256', SCHOLIA_BULK_BODIES_PER_USER_MIB: '64' };
    expect(readConfig(env).bulkBodyBudget).toEqual({ serverBytes: 256 * MIB, userBytes: 64 * MIB });
  });

  it.each([
    [{ SCHOLIA_BULK_BODIES_MIB: 'lots' }, 'SCHOLIA_BULK_BODIES_MIB must be a whole number of MiB'],
    [{ SCHOLIA_BULK_BODIES_MIB: '1.5' }, 'SCHOLIA_BULK_BODIES_MIB must be a whole number of MiB'],
    // A user's share below one largest body could never admit it.
    [{ SCHOLIA_BULK_BODIES_PER_USER_MIB: String(largestBodyMib - 1) }, `SCHOLIA_BULK_BODIES_PER_USER_MIB must be a whole number of MiB, at least ${largestBodyMib}`],
    [{ SCHOLIA_BULK_BODIES_MIB: String(largestBodyMib), SCHOLIA_BULK_BODIES_PER_USER_MIB: String(2 * largestBodyMib) }, 'SCHOLIA_BULK_BODIES_MIB'],
  ])('refuse %o at start with a message naming the variable', (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });
});
