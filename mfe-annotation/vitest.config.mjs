import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { environment: 'jsdom', restoreMocks: true, unstubGlobals: true, setupFiles: ['./src/test-page-i18n.ts'] },
});
