import { existsSync } from 'node:fs';
import { runSteps } from './run-steps.mjs';

/** `npm test`: every test of the repository, in order of cost. */
const steps = [
  { name: 'type-check (tsc -b)', command: 'npx tsc -b' },
  { name: 'server API tests', command: 'npm run test -w @scholia/server' },
  { name: 'Python SDK suite', command: 'npm run test:sdk -w @scholia/server' },
];
if (existsSync('scripts/test-web.mjs')) steps.push({ name: 'web platform tests', command: 'node scripts/test-web.mjs' });

const failed = runSteps(steps);
console.log(`\nsteps: ${steps.length - failed.length} passed, ${failed.length} failed`);
if (failed.length) {
  console.log(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
