import { defineConfig } from 'vitest/config';

// Rendering a whole page in jsdom can pass vitest's 5 s default on a busy 2-core machine.
export default defineConfig({
  test: { testTimeout: 20_000, environment: 'jsdom', restoreMocks: true, unstubGlobals: true },
});
