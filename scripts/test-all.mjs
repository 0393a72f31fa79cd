import './require-supported-node.mjs';
import { runSteps } from './run-steps.mjs';

const webPackages = ['shared', 'shell', 'mfe-auth', 'mfe-home', 'mfe-annotation', 'mfe-settings', 'mfe-hub-import'];

/** `npm test`: every test of the repository, cheapest first; every step runs, failures are listed at the end. */
const steps = [
  { name: 'type-check (tsc -b)', command: 'npx tsc -b' },
  { name: 'dependency audit (high and critical)', command: 'node scripts/audit.mjs' },
  { name: 'docs: links and runnable blocks', command: 'node --test scripts/check-docs.test.mjs && node scripts/check-docs.mjs' },
  { name: 'server API tests (SQLite)', command: 'npm run test -w @scholia/server' },
  { name: 'argilla SDK suite (SQLite)', command: 'npm run test:sdk -w @scholia/server' },
  { name: "argilla SDK's own Hub tests, fake Hub (SQLite)", command: 'npm run test:sdk-hub -w @scholia/server' },
  { name: 'server API tests (PostgreSQL)', command: 'node scripts/with-postgres.mjs npm run test -w @scholia/server' },
  { name: 'argilla SDK suite (PostgreSQL)', command: 'node scripts/with-postgres.mjs npm run test:sdk -w @scholia/server' },
  { name: 'build web', command: 'node scripts/build-web.mjs' },
  { name: 'web unit tests', command: `npm run test ${webPackages.map((p) => `-w @scholia/${p}`).join(' ')}` },
  { name: 'browser tests (Chromium)', command: 'npm run test -w @scholia/e2e' },
];

const failed = runSteps(steps);
console.log(`\nsteps: ${steps.length - failed.length} passed, ${failed.length} failed`);
if (failed.length) {
  console.log(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
