import './require-supported-node.mjs';
import { spawn } from 'node:child_process';

/**
 * `npm run dev`: the API server in watch mode on SCHOLIA_PORT (6900) and the shell and remotes on
 * their dev servers with hot reload, proxying /api to it. Ctrl-C stops both.
 */
const children = [
  spawn('npm', ['run', 'dev', '-w', '@scholia/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev:web'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
