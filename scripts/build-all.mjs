import './require-supported-node.mjs';
import { runSteps } from './run-steps.mjs';

/** Builds what `npm start` serves: the shell and every remote into dist/web, and the compiled server. */
const failed = runSteps([
  { name: 'build web', command: 'node scripts/build-web.mjs' },
  { name: 'build server', command: 'node scripts/build-server.mjs' },
]);
if (failed.length) process.exit(1);
