/**
 * Imported first by every entry point: an older Node.js would crash inside the SQLite binding
 * (which needs Node-API of Node 22) instead of saying why. ES modules run in import order, so this
 * check ends the process before any later import is evaluated.
 */
export const MINIMUM_NODE_MAJOR = 22;

export function unsupportedNodeMessage(version: string): string | undefined {
  const major = Number(version.replace(/^v/, '').split('.')[0]);
  if (major >= MINIMUM_NODE_MAJOR) return undefined;
  return `Scholia needs Node.js ${MINIMUM_NODE_MAJOR} or 24 (an LTS release); this is Node.js ${version}. Install a supported Node.js and run npm install again.`;
}

const message = unsupportedNodeMessage(process.version);
if (message) {
  // A log line as pino writes it (level 60: fatal), without loading pino on a Node.js it may not support.
  process.stdout.write(`${JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, msg: message })}\n`);
  process.exit(1);
}
