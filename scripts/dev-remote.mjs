#!/usr/bin/env node
// Serves one remote with hot reload for a running Scholia, so its developer sees their changes in
// the real app without building or deploying anything:
//
//   npm run dev:remote -- <name> --scholia <url> [--port <port>]
//
// The Scholia at <url> must run with SCHOLIA_REMOTE_OVERRIDES=true (a development server: it is
// refused on production-looking ones). The script prints the one line that points an owner's
// browser at this dev server; nobody else's browser changes. docs/teams.md describes it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rspack } from '@rspack/core';
import { REMOTES, makeConfig } from './build-web.mjs';

const USAGE = 'usage: npm run dev:remote -- <name> --scholia <url> [--port <port>]';
const ROOT = path.resolve(import.meta.dirname, '..');

function parseArgs(args) {
  const options = { name: undefined, scholia: undefined, port: 3100 };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--scholia' || arg === '--port') {
      const value = args[i + 1];
      if (!value || value.startsWith('--')) throw new Error(`${arg} needs a value\n${USAGE}`);
      if (arg === '--port') options.port = Number(value);
      else options.scholia = value.replace(/\/+$/, '');
      i += 1;
    } else if (!arg.startsWith('--') && !options.name) options.name = arg;
    else throw new Error(`Unexpected argument "${arg}"\n${USAGE}`);
  }
  if (!options.name || !options.scholia) throw new Error(USAGE);
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) throw new Error(`--port must be a port number\n${USAGE}`);
  return options;
}

/** Whether the Scholia at `url` lets owners override remotes: its page says so in the boot manifest. */
async function overridesAllowed(url) {
  const html = await (await fetch(`${url}/`)).text();
  const content = html.match(/<meta name="scholia-boot" content="([^"]*)">/)?.[1];
  return Boolean(content && JSON.parse(content.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')).overrides);
}

export async function devRemote({ name, scholia, port }) {
  const remote = REMOTES.find((r) => r.dir === name || r.name === name);
  if (!remote) throw new Error(`Unknown remote "${name}"; one of ${REMOTES.map((r) => r.dir).join(', ')}`);
  if (!(await overridesAllowed(scholia))) {
    throw new Error(`${scholia} does not allow remote overrides: start it with SCHOLIA_REMOTE_OVERRIDES=true (development servers only)`);
  }
  const { RspackDevServer } = await import('@rspack/dev-server');
  const config = makeConfig({ dir: remote.dir, name: remote.name, dev: true, outputPath: path.join(ROOT, 'dist', 'web-dev', remote.dir) });
  // The running Scholia's React is a production build, whose jsx-dev-runtime exports no jsxDEV:
  // compile JSX for the production runtime, everything else stays a development build.
  for (const rule of config.module.rules) if (rule.options?.jsc?.transform?.react) rule.options.jsc.transform.react.development = false;
  const entry = `http://localhost:${port}/remoteEntry.js`;
  // The dev server refuses scripts and its hot-reload socket to pages of other sites unless its
  // own host and the page's are allowed: Scholia's page is such a page.
  const allowedHosts = ['localhost', new URL(scholia).hostname];
  const devServer = { port, host: 'localhost', hot: true, allowedHosts, headers: { 'Access-Control-Allow-Origin': scholia } };
  const server = new RspackDevServer(devServer, rspack(config));
  await server.start();
  console.log(`dev:remote: ${remote.dir} on ${entry}, for ${scholia}`);
  console.log('Open Scholia, sign in as an owner and run this in the browser console (only your browser changes):');
  console.log(`  localStorage.setItem('scholia.remoteOverrides', JSON.stringify({ ...JSON.parse(localStorage.getItem('scholia.remoteOverrides') ?? '{}'), ${remote.name}: '${entry}' })); location.reload();`);
  console.log('The banner at the top of the page turns it off again.');
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  Promise.resolve().then(() => devRemote(parseArgs(process.argv.slice(2)))).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
