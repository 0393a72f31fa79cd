import { parseArgs } from 'node:util';
import { ORG_WRITE_TOKEN, startFakeHub } from './fake-hub.js';

/**
 * Runs the fake hub as its own process (for tests in other languages, e.g. the SDK's pytest, and by hand):
 *   npm run fake-hub -- [--port <port>]
 * Once listening it prints `FAKE_HUB_URL=<url>` and `FAKE_HUB_TOKEN=<token>` (a write token that may also write
 * to the argilla-internal-testing organization), one line each; stops on SIGTERM/SIGINT.
 */
const { values } = parseArgs({ options: { port: { type: 'string' } } });
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`--port must be a whole number from 0 to 65535, not "${values.port}"\n`);
  process.exit(2);
}
const hub = await startFakeHub({ port });
process.stdout.write(`FAKE_HUB_URL=${hub.url}\nFAKE_HUB_TOKEN=${ORG_WRITE_TOKEN}\n`);
const stop = () => void hub.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
