import { startFakeHub } from './fake-hub.js';

/**
 * Runs the fake hub as its own process (for tests in other languages, e.g. the SDK's pytest):
 * prints `FAKE_HUB_URL=<url>` on one stdout line once listening, stops on SIGTERM/SIGINT.
 *   node node_modules/tsx/dist/cli.mjs server/test/fake-hub/serve-fake-hub.ts
 */
const hub = await startFakeHub();
process.stdout.write(`FAKE_HUB_URL=${hub.url}\n`);
const stop = () => void hub.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
