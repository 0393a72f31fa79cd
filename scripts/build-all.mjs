import { existsSync } from 'node:fs';
import { runSteps } from './run-steps.mjs';

/** Builds what `npm start` serves: the shell and every remote into dist/web. */
const steps = existsSync('scripts/build-web.mjs') ? [{ name: 'build web', command: 'node scripts/build-web.mjs' }] : [];
const failed = runSteps(steps);
if (failed.length) process.exit(1);
