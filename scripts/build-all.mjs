import { runSteps } from './run-steps.mjs';

/** Builds what `npm start` serves: the shell and every remote into dist/web. */
const failed = runSteps([{ name: 'build web', command: 'node scripts/build-web.mjs' }]);
if (failed.length) process.exit(1);
