#!/usr/bin/env node
// Builds one remote on its own, for a team that deploys it to any static host or CDN:
//
//   npm run build:remote -- <name> --out <dir> [--public-path <url>]
//
// <name> is the remote's folder (mfe-settings, mfe-annotation, …). The output goes into a
// versioned folder, <dir>/<name>/<version>-<build id>/, holding remoteEntry.js, mf-manifest.json,
// the chunks and remote.json; older folders stay, so pointing the registration back at one rolls
// back. Neither the shell nor the other remotes are built. docs/teams.md describes the workflow.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rspack } from '@rspack/core';
import { REMOTES, makeConfig, precompress, run, writeRemoteInfo } from './build-web.mjs';

const USAGE = 'usage: npm run build:remote -- <name> --out <dir> [--public-path <url>]';

/** Builds `name` into `<out>/<name>/<version>-<build id>/` and returns that folder and its remote.json. */
export async function buildRemote({ name, out, publicPath }) {
  const remote = REMOTES.find((r) => r.dir === name || r.name === name);
  if (!remote) throw new Error(`Unknown remote "${name}"; one of ${REMOTES.map((r) => r.dir).join(', ')}`);
  const parent = path.resolve(out, remote.dir);
  // Built beside its final place, then renamed: a host serving <out> never sees half a folder.
  const staging = path.join(parent, `.building-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  await run(rspack(makeConfig({ dir: remote.dir, name: remote.name, outputPath: staging, publicPath })));
  const info = writeRemoteInfo(remote.dir, staging);
  await precompress(staging);
  const folder = path.join(parent, `${info.version}-${info.buildId}`);
  fs.rmSync(folder, { recursive: true, force: true });
  fs.renameSync(staging, folder);
  return { folder, info };
}

function parseArgs(args) {
  const options = { name: undefined, out: undefined, publicPath: undefined };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--out' || arg === '--public-path') {
      const value = args[i + 1];
      if (!value || value.startsWith('--')) throw new Error(`${arg} needs a value\n${USAGE}`);
      options[arg === '--out' ? 'out' : 'publicPath'] = value;
      i += 1;
    } else if (!arg.startsWith('--') && !options.name) options.name = arg;
    else throw new Error(`Unexpected argument "${arg}"\n${USAGE}`);
  }
  if (!options.name || !options.out) throw new Error(USAGE);
  // A fixed public path must end with a slash: chunk URLs are appended to it.
  if (options.publicPath && !options.publicPath.endsWith('/')) options.publicPath += '/';
  return options;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  Promise.resolve().then(() => buildRemote(parseArgs(process.argv.slice(2)))).then(({ folder, info }) => {
    console.log(`remote: built ${info.package} ${info.version} (build ${info.buildId}, contract ${info.contract}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`remote: ${path.join(folder, 'remoteEntry.js')}`);
  }, (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
