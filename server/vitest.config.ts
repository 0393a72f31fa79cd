import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The files mostly wait on their servers and databases: two at once even on two cores
    // (Vitest's default there is one), which took the server suites from ~13 to ~8.5 minutes.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
