#!/usr/bin/env node
// Builds (or serves with hot reload) the shell and every remote with rspack + Module Federation.
//
//   node scripts/build-web.mjs                 production build of all into dist/web
//   node scripts/build-web.mjs --only mfe-home build one package (the shell keeps dist/web/remotes)
//   node scripts/build-web.mjs --dev           dev servers with HMR; /api proxied to the server
//
// Dev env: SCHOLIA_WEB_PORT (shell, default 3000; remotes take the next five ports),
// SCHOLIA_API_URL (default http://localhost:6900).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

const ROOT = path.resolve(import.meta.dirname, '..');
export const WEB_DIR = path.join(ROOT, 'dist', 'web');

/** Remotes in port order; `name` is the MF container name used in remotes.json. */
export const REMOTES = [
  { dir: 'mfe-auth', name: 'mfe_auth' },
  { dir: 'mfe-home', name: 'mfe_home' },
  { dir: 'mfe-annotation', name: 'mfe_annotation' },
  { dir: 'mfe-settings', name: 'mfe_settings' },
  { dir: 'mfe-hub-import', name: 'mfe_hub_import' },
];

const singleton = (requiredVersion, extra = {}) => ({ singleton: true, requiredVersion, ...extra });
const SHARED_VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'shared/package.json'), 'utf8')).version;
// Subpath exports carry no package.json of their own: give MF the version explicitly.
const ownPackage = () => singleton(`^${SHARED_VERSION}`, { version: SHARED_VERSION });

/** Shared singletons. Deep imports are separate share keys, so each one is listed (recipe §9.5). */
export const SHARED = {
  react: singleton('^19.0.0'),
  'react/jsx-runtime': singleton('^19.0.0'),
  'react/jsx-dev-runtime': singleton('^19.0.0'),
  'react-dom': singleton('^19.0.0'),
  'react-dom/client': singleton('^19.0.0'),
  'react-router': singleton('^7.0.0'),
  'react-router-dom': singleton('^7.0.0'),
  i18next: singleton('^26.0.0'),
  'react-i18next': singleton('^17.0.0'),
  '@tanstack/react-query': singleton('^5.0.0'),
  '@scholia/shared': ownPackage(),
  '@scholia/shared/api': ownPackage(),
  '@scholia/shared/bus': ownPackage(),
  '@scholia/shared/i18n': ownPackage(),
  '@scholia/shared/ui': ownPackage(),
  '@scholia/shared/theme': ownPackage(),
};

/** One config factory for the shell (`dir: 'shell'`) and every remote. */
export function makeConfig({ dir, name, dev = false, publicPath, outputPath }) {
  const context = path.join(ROOT, dir);
  const isShell = dir === 'shell';
  return {
    name: dir,
    context,
    mode: dev ? 'development' : 'production',
    devtool: dev ? 'cheap-module-source-map' : 'source-map',
    target: ['web', 'es2022'],
    entry: { main: './src/index.ts' },
    output: {
      path: outputPath,
      publicPath: publicPath ?? (isShell ? '/' : 'auto'),
      uniqueName: name,
      filename: dev ? '[name].js' : '[name].[contenthash:8].js',
      chunkFilename: dev ? '[name].js' : '[name].[contenthash:8].js',
      cssFilename: dev ? '[name].css' : '[name].[contenthash:8].css',
      cssChunkFilename: dev ? '[name].css' : '[name].[contenthash:8].css',
      clean: false,
    },
    resolve: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      // Sources import siblings as `./x.js` (TS ESM style); resolve them to the .ts/.tsx file.
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          type: 'javascript/auto',
          options: {
            jsc: {
              target: 'es2022',
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic', development: dev, refresh: dev && isShell } },
            },
          },
        },
        { test: /\.css$/, type: 'css/auto' },
      ],
    },
    plugins: [
      isShell && new rspack.HtmlRspackPlugin({ template: path.join(context, 'index.html') }),
      new ModuleFederationPlugin({
        name,
        filename: isShell ? undefined : 'remoteEntry.js',
        exposes: isShell ? undefined : { './App': './src/expose/app.tsx', './lifecycles': './src/expose/lifecycles.tsx' },
        // The shell registers its remotes at run time from /remotes.json (remote-manifest.ts).
        remotes: {},
        shared: SHARED,
        shareStrategy: 'loaded-first',
        runtimePlugins: isShell ? [path.join(context, 'src/remotes/mf-error-reporter-plugin.ts')] : [],
        dts: false,
        manifest: !isShell,
      }),
      dev && isShell && new ReactRefresh(),
    ].filter(Boolean),
    performance: { hints: false },
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'error' },
  };
}

let ReactRefresh;

function outputDirOf(dir) {
  return dir === 'shell' ? WEB_DIR : path.join(WEB_DIR, 'remotes', dir);
}

/** The manifest the server serves statically: remote name → entry URL on the same origin. */
export function writeRemoteManifest(entries = Object.fromEntries(REMOTES.map((r) => [r.name, `/remotes/${r.dir}/remoteEntry.js`]))) {
  fs.mkdirSync(WEB_DIR, { recursive: true });
  fs.writeFileSync(path.join(WEB_DIR, 'remotes.json'), `${JSON.stringify(entries, null, 2)}\n`);
}

function cleanOutput(dir) {
  const out = outputDirOf(dir);
  if (dir !== 'shell') return fs.rmSync(out, { recursive: true, force: true });
  // The shell's folder also holds the remotes: keep them when only the shell is rebuilt.
  if (!fs.existsSync(out)) return;
  for (const entry of fs.readdirSync(out)) if (entry !== 'remotes') fs.rmSync(path.join(out, entry), { recursive: true, force: true });
}

function run(compiler) {
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => {});
      if (error) return reject(error);
      const info = stats.toJson({ all: false, errors: true, warnings: true });
      for (const warning of info.warnings ?? []) if (!/absolute path/i.test(warning.message)) console.warn(warning.message);
      if (stats.hasErrors()) return reject(new Error(info.errors.map((e) => e.message).join('\n')));
      resolve(stats);
    });
  });
}

export async function build({ only } = {}) {
  const targets = only ? [only] : ['shell', ...REMOTES.map((r) => r.dir)];
  if (!only) fs.rmSync(WEB_DIR, { recursive: true, force: true });
  const started = Date.now();
  const configs = targets.map((dir) => {
    if (only) cleanOutput(dir);
    const name = dir === 'shell' ? 'shell' : REMOTES.find((r) => r.dir === dir)?.name;
    if (!name) throw new Error(`Unknown web package: ${dir}`);
    return makeConfig({ dir, name, outputPath: outputDirOf(dir) });
  });
  // One process, sequential compilers: the machine has 2 cores and rspack already uses both.
  for (const config of configs) await run(rspack(config));
  if (!only || only === 'shell') writeRemoteManifest();
  console.log(`web: built ${targets.join(', ')} into ${path.relative(ROOT, WEB_DIR)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export async function dev() {
  const { RspackDevServer } = await import('@rspack/dev-server');
  ({ ReactRefreshRspackPlugin: ReactRefresh } = await import('@rspack/plugin-react-refresh'));
  const basePort = Number(process.env.SCHOLIA_WEB_PORT ?? 3000);
  const apiUrl = process.env.SCHOLIA_API_URL ?? 'http://localhost:6900';
  const manifest = Object.fromEntries(REMOTES.map((r, i) => [r.name, `http://localhost:${basePort + 1 + i}/remoteEntry.js`]));
  const servers = [];
  for (const [index, { dir, name }] of [{ dir: 'shell', name: 'shell' }, ...REMOTES].entries()) {
    const port = basePort + index;
    const config = makeConfig({ dir, name, dev: true, outputPath: path.join(ROOT, 'dist', 'web-dev', dir) });
    config.devServer = {
      port,
      host: 'localhost',
      hot: true,
      historyApiFallback: dir === 'shell',
      headers: { 'Access-Control-Allow-Origin': '*' },
      proxy: dir === 'shell' ? [{ context: ['/api'], target: apiUrl, changeOrigin: true }] : undefined,
      setupMiddlewares: dir === 'shell'
        ? (middlewares) => [{ name: 'remotes-manifest', path: '/remotes.json', middleware: (_req, res) => {
          res.setHeader('Content-Type', 'application/json');
          res.setHeader('Cache-Control', 'no-cache');
          res.end(JSON.stringify(manifest));
        } }, ...middlewares]
        : undefined,
    };
    const server = new RspackDevServer(config.devServer, rspack(config));
    await server.start();
    servers.push(server);
    console.log(`web dev: ${dir} on http://localhost:${port}`);
  }
  console.log(`web dev: open http://localhost:${basePort} (API proxied to ${apiUrl})`);
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const onlyIndex = args.indexOf('--only');
  const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
  const task = args.includes('--dev') ? dev() : build({ only });
  task.catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
