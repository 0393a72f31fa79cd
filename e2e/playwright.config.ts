import { defineConfig } from '@playwright/test';

/** Debian's Chromium; never a downloaded browser (recipe §7). */
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export default defineConfig({
  testDir: './specs',
  globalSetup: './fixtures/global-setup.ts',
  // One real server per run; specs create uniquely named data, but keep it predictable on 2 cores.
  workers: 1,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: '../test-results/e2e',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.SCHOLIA_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
