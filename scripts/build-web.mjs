#!/usr/bin/env node
// Builds (or serves with hot reload) the shell and every remote with rspack + Module Federation.
//
//   node scripts/build-web.mjs                 production build of all into dist/web
//   node scripts/build-web.mjs --only mfe-home build one package (the shell keeps dist/web/remotes)
//   node scripts/build-web.mjs --dev           dev servers with HMR; /api proxied to the server
//
// Dev env: SCHOLIA_WEB_PORT (shell, default 3000; remotes take the next five ports),
// SCHOLIA_API_URL (default http://localhost:6900).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Output folder; SCHOLIA_WEB_OUT builds elsewhere (benches beside a running e2e suite). */
export const WEB_DIR = process.env.SCHOLIA_WEB_OUT ? path.resolve(process.env.SCHOLIA_WEB_OUT) : path.join(ROOT, 'dist', 'web');

/** Remotes in port order; `name` is the MF container name used in remotes.json. */
export const REMOTES = [
  { dir: 'mfe-auth', name: 'mfe_auth' },
  { dir: 'mfe-home', name: 'mfe_home' },
  { dir: 'mfe-annotation', name: 'mfe_annotation' },
  { dir: 'mfe-settings', name: 'mfe_settings' },
  { dir: 'mfe-hub-import', name: 'mfe_hub_import' },
];

const singleton = (requiredVersion, extra = {}) => ({ singleton: true, requiredVersion, ...extra });
const readPackage = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const SHARED_PACKAGE = readPackage(path.join(ROOT, 'shared'));
const SHARED_VERSION = SHARED_PACKAGE.version;

/**
 * What a remote was built against: the contract version of @scholia/shared (docs/teams.md says
 * what a breaking change is) and the version of every shared singleton package. The build writes
 * it into each remote's remote.json and compiles it into the shell, which refuses to mount a
 * remote whose majors differ from its own (shell/src/remotes/remote-compatibility.ts).
 */
export const PLATFORM = {
  contract: SHARED_PACKAGE.scholia.contract,
  shared: Object.fromEntries(['react', 'react-dom', 'react-router', 'react-router-dom', 'i18next', 'react-i18next', '@tanstack/react-query']
    .map((name) => [name, readPackage(path.join(ROOT, 'node_modules', name)).version])),
};
// Subpath exports carry no package.json of their own: give MF the version explicitly.
const ownPackage = () => singleton(`^${SHARED_VERSION}`, { version: SHARED_VERSION });

/**
 * react-router 7 ships one module for browser and server, data router included: shared modules
 * are not tree-shaken (recipe §8), so every export costs every page. The apps use declarative
 * routing only (the shell: <BrowserRouter> + useRoutes with its guard chain in a component;
 * remotes: Link and hooks; standalone remotes: <MemoryRouter>). Every app therefore resolves
 * `react-router` and `react-router-dom` to a generated facade that re-exports only the
 * declarative browser API from the package's production build (dev warnings off): the data
 * router (createBrowserRouter, loaders, actions, fetchers, <Form>), the DOM RouterProvider and
 * the server half are left out (~18 KB gz before the first render). The share keys and versions
 * stay `react-router(-dom)` 7.x: remotes built elsewhere still negotiate, and a remote that
 * needs an export missing here must add it to ROUTER_DECLARATIVE.
 */
const ROUTER_DIR = path.join(ROOT, 'node_modules', 'react-router');
const ROUTER_VERSION = JSON.parse(fs.readFileSync(path.join(ROUTER_DIR, 'package.json'), 'utf8')).version;
const ROUTER_DOM_VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'react-router-dom', 'package.json'), 'utf8')).version;
const ROUTER_DECLARATIVE = [
  // Routers and route elements
  'BrowserRouter', 'HashRouter', 'MemoryRouter', 'Router', 'Routes', 'Route', 'Outlet', 'Navigate', 'Link', 'NavLink',
  // Hooks
  'useHref', 'useInRouterContext', 'useLocation', 'useMatch', 'useNavigate', 'useNavigationType', 'useOutlet',
  'useOutletContext', 'useParams', 'useResolvedPath', 'useRoutes', 'useSearchParams', 'useLinkClickHandler',
  // Utilities
  'createSearchParams', 'createPath', 'parsePath', 'generatePath', 'matchPath', 'matchRoutes', 'resolvePath',
  'createRoutesFromChildren', 'createRoutesFromElements', 'renderMatches', 'isRouteErrorResponse',
  'NavigationType', 'UNSAFE_LocationContext', 'UNSAFE_NavigationContext', 'UNSAFE_RouteContext',
];

function writeRouterFacade() {
  const entry = path.join(ROUTER_DIR, 'dist', 'production', 'index.mjs');
  const names = new Set(exportNames(entry, `react-router ${ROUTER_VERSION}`));
  const missing = ROUTER_DECLARATIVE.filter((name) => !names.has(name));
  if (missing.length) throw new Error(`react-router ${ROUTER_VERSION}: no export ${missing.join(', ')} in ${entry}`);
  return writeGenerated('react-router-browser.mjs',
    `// Generated by scripts/build-web.mjs: the declarative browser API of react-router ${ROUTER_VERSION}.\n` +
    `export { ${ROUTER_DECLARATIVE.join(', ')} } from ${JSON.stringify(entry)};\n`);
}

/** The names a bundled ES module exports in its final `export { … }` list (`a as b` gives `b`). */
function exportNames(file, what) {
  const block = fs.readFileSync(file, 'utf8').match(/\nexport \{([^}]*)\};?\s*(\/\/.*)?$/);
  if (!block) throw new Error(`${what}: no export list in ${file}`);
  return block[1].split(',').map((s) => s.trim()).filter(Boolean).map((s) => s.split(/\s+as\s+/).at(-1));
}

/** Writes a generated module into node_modules/.cache (kept when unchanged, so rebuilds stay cached). */
function writeGenerated(name, text) {
  const file = path.join(ROOT, 'node_modules', '.cache', 'scholia-web', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) fs.writeFileSync(file, text);
  return file;
}

/** react-router-dom 7 is `react-router` plus the data router's DOM RouterProvider, not used here. */
function writeRouterDomFacade() {
  return writeGenerated('react-router-dom-browser.mjs',
    `// Generated by scripts/build-web.mjs: react-router-dom ${ROUTER_DOM_VERSION} for a client-rendered, declarative app.\n` +
    `export * from 'react-router';\n`);
}

/** React 19 has useSyncExternalStore; react-i18next's shim import would add its fallback. */
function writeSyncExternalStoreShim() {
  return writeGenerated('use-sync-external-store-shim.mjs',
    `// Generated by scripts/build-web.mjs: React 19 ships useSyncExternalStore.\nexport { useSyncExternalStore } from 'react';\n`);
}

/**
 * react-i18next's index also carries <Trans> and <IcuTrans> (JSX inside translations, with an
 * HTML parser): 7 of its 10 KB gz, loaded before the first render because shared modules are
 * not tree-shaken. No package uses them (every string goes through t()), so the shared module
 * is the package without them; a remote that wants <Trans> must add it here. The same goes for
 * withSSR/useSSR (server-rendered pages only; 0.3 KB gz).
 */
const I18N_REACT_DIR = path.join(ROOT, 'node_modules', 'react-i18next', 'dist', 'es');
const I18N_REACT_VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'react-i18next', 'package.json'), 'utf8')).version;
const I18N_REACT_DROPPED = /^\.\/(Trans|TransWithoutContext|IcuTrans|IcuTransWithoutContext|withSSR|useSSR)\.js$/;

function writeReactI18nextFacade() {
  const entry = path.join(I18N_REACT_DIR, 'index.js');
  const lines = fs.readFileSync(entry, 'utf8').split('\n').filter((line) => line.trim());
  const kept = lines.map((line) => {
    const from = line.match(/^export \{[^}]*\} from '([^']+)';$/)?.[1];
    if (from) return I18N_REACT_DROPPED.test(from) ? undefined : line.replace(`'${from}'`, JSON.stringify(path.join(I18N_REACT_DIR, from)));
    if (/^export const \w+ = \(\) => '';$/.test(line)) return line; // ICU macro stubs
    throw new Error(`react-i18next ${I18N_REACT_VERSION}: unexpected line in ${entry}: ${line}`);
  }).filter(Boolean);
  return writeGenerated('react-i18next-browser.mjs',
    `// Generated by scripts/build-web.mjs: react-i18next ${I18N_REACT_VERSION} without <Trans>/<IcuTrans>/SSR helpers.\n${kept.join('\n')}\n`);
}

/**
 * @tanstack/react-query re-exports all of query-core; shared modules are not tree-shaken, so the
 * SSR half (HydrationBoundary, dehydrate/hydrate), the experimental streamedQuery, infinite and
 * suspense queries loaded before every first render though no package uses them (1.6 KB gz).
 * The shared module is the package without them; a remote that needs one must add it back here.
 */
const QUERY_DIR = path.join(ROOT, 'node_modules', '@tanstack', 'react-query');
const QUERY_VERSION = JSON.parse(fs.readFileSync(path.join(QUERY_DIR, 'package.json'), 'utf8')).version;
const QUERY_DROPPED = new Set(['HydrationBoundary', 'dehydrate', 'dehydrateQuery', 'hydrate', 'defaultShouldDehydrateMutation',
  'defaultShouldDehydrateQuery', 'experimental_streamedQuery',
  'InfiniteQueryObserver', 'useInfiniteQuery', 'useSuspenseInfiniteQuery', 'usePrefetchInfiniteQuery', 'infiniteQueryOptions',
  'useSuspenseQuery', 'useSuspenseQueries', 'usePrefetchQuery', 'useMutationState', 'IsRestoringProvider']);

function writeReactQueryFacade() {
  const names = (file) => exportNames(file, `@tanstack/react-query ${QUERY_VERSION}`);
  const reactEntry = path.join(QUERY_DIR, 'build', 'modern', 'index.js');
  const coreEntry = path.join(ROOT, 'node_modules', '@tanstack', 'query-core', 'build', 'modern', 'index.js');
  const keep = (list) => list.filter((name) => !QUERY_DROPPED.has(name)).join(', ');
  return writeGenerated('react-query-browser.mjs',
    `// Generated by scripts/build-web.mjs: @tanstack/react-query ${QUERY_VERSION} without hydration, streamed, infinite and suspense queries.\n` +
    `export { ${keep(names(reactEntry))} } from ${JSON.stringify(reactEntry)};\n` +
    `export { ${keep(names(coreEntry))} } from ${JSON.stringify(coreEntry)};\n`);
}

const WEB_ALIAS = {
  'use-sync-external-store/shim$': writeSyncExternalStoreShim(),
  'react-i18next$': writeReactI18nextFacade(),
  '@tanstack/react-query$': writeReactQueryFacade(),
  'react-router$': writeRouterFacade(),
  'react-router-dom$': writeRouterDomFacade(),
  'react-router/dom$': path.join(ROUTER_DIR, 'dist', 'production', 'dom-export.mjs'),
};

/**
 * The MF plugin injects its runtime with `require`, which picks the packages' CommonJS builds:
 * nothing of them is tree-shaken (~33 KB gz per entry). Their ES builds let the `experiments.
 * optimization` flags below drop the snapshot and Node code paths.
 */
const MF_RUNTIME_ESM = Object.fromEntries(['runtime', 'runtime-core', 'runtime-tools', 'sdk', 'webpack-bundler-runtime', 'error-codes'].flatMap((name) => {
  const dir = path.join(ROOT, 'node_modules', '@module-federation', name);
  const pairs = [];
  for (const [subpath, target] of Object.entries(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).exports ?? {})) {
    const esm = typeof target === 'object' ? target.import?.default ?? target.import : undefined;
    const cjs = typeof target === 'object' ? target.require?.default ?? target.require : undefined;
    if (typeof esm !== 'string' || !/\.m?js$/.test(esm)) continue;
    // By package name (our imports) and by the absolute .cjs path the plugin injects.
    pairs.push([`@module-federation/${name}${subpath.slice(1)}$`, path.join(dir, esm)]);
    if (typeof cjs === 'string') pairs.push([`${path.join(dir, cjs)}$`, path.join(dir, esm)]);
  }
  return pairs;
}));

/** Shared singletons. Deep imports are separate share keys, so each one is listed (recipe §9.5). */
/**
 * React: one copy per page, 19.x. A host whose React is already in use and outside ^19 makes the
 * remote's module fail to load with the runtime's "does not satisfy the requirement" error
 * (strictVersion) instead of rendering against the wrong React; docs/embedding.md states it.
 */
const react = () => singleton('^19.0.0', { strictVersion: true });

export const SHARED = {
  react: react(),
  'react/jsx-runtime': react(),
  'react/jsx-dev-runtime': react(),
  'react-dom': react(),
  'react-dom/client': react(),
  // The facade's own folder has no package.json: give MF the real version.
  'react-router': singleton('^7.0.0', { version: ROUTER_VERSION }),
  'react-router-dom': singleton('^7.0.0', { version: ROUTER_DOM_VERSION }),
  i18next: singleton('^26.0.0'),
  // These two resolve to facades whose folder has no package.json: give MF the real versions.
  'react-i18next': singleton('^17.0.0', { version: I18N_REACT_VERSION }),
  '@tanstack/react-query': singleton('^5.0.0', { version: QUERY_VERSION }),
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
    // Production maps carry no sourceMappingURL comment: the server withholds them unless
    // SCHOLIA_SERVE_SOURCE_MAPS is on, and then names each one in a SourceMap header.
    devtool: dev ? 'cheap-module-source-map' : 'hidden-source-map',
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
      alias: { ...WEB_ALIAS, ...MF_RUNTIME_ESM },
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
      isShell && new rspack.DefinePlugin({ __SCHOLIA_PLATFORM__: JSON.stringify(PLATFORM) }),
      new ModuleFederationPlugin({
        name,
        filename: isShell ? undefined : 'remoteEntry.js',
        exposes: isShell ? undefined : { './App': './src/expose/app.tsx', './lifecycles': './src/expose/lifecycles.tsx' },
        // The shell registers its remotes at run time from /remotes.json (remote-manifest.ts).
        remotes: {},
        shared: SHARED,
        shareStrategy: 'loaded-first',
        // Remotes are registered by entry URL (remotes.json), never by mf-manifest snapshot, and
        // only browsers load them: drop the snapshot plugin and the Node code paths of the runtime.
        experiments: { optimization: { disableSnapshot: true, target: 'web' } },
        runtimePlugins: isShell ? [path.join(context, 'src/remotes/mf-error-reporter-plugin.ts')] : [],
        dts: false,
        manifest: !isShell,
      }),
      dev && isShell && new ReactRefresh(),
    ].filter(Boolean),
    // The shell loads every shared module it provides before its first render: one chunk for
    // them all instead of ~16 (a busy browser took ~80 ms per request). Remotes keep one chunk
    // per shared module: they load only the fallbacks the shell does not provide.
    optimization: isShell && !dev ? { splitChunks: { cacheGroups: { boot: BOOT_CHUNK } } } : undefined,
    performance: { hints: false },
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'error' },
  };
}

let ReactRefresh;

/**
 * Libraries, @scholia/shared and the shell's own code, less the locales that load on a language
 * switch, the My settings page with its API-key dialog (its route loads them), the Hugging Face
 * Space notices (loaded on a Space only), the open user menu and the toasts (they load a few
 * seconds after the first paint, or with the first toast): one file, one gzip stream (~1 KB
 * less than the shell's code in a chunk of its own).
 */
const BOOT_CHUNK = {
  name: 'boot',
  chunks: 'async',
  enforce: true,
  test: (module) => {
    const file = module.resource ?? '';
    return (file.includes(`${path.sep}node_modules${path.sep}`) || file.startsWith(path.join(ROOT, 'shared', 'src'))
      || file.startsWith(path.join(ROOT, 'shell', 'src')))
      && !/[\\/]locales[\\/](de|es)\.ts$/.test(file) && !/[\\/](pages[\\/]user-settings-page|pages[\\/]rotate-api-key|chrome[\\/]space-notices|chrome[\\/]user-menu-panel|toasts[\\/]toaster)\.tsx$/.test(file)
      && !/[\\/]toasts[\\/]toast-store\.ts$/.test(file);
  },
};

/**
 * The shell boots in three waves: main.js (MF runtime), then the bootstrap chunk with the shared
 * modules it consumes, then what those consume (react-dom after react-router…). Every chunk of
 * that graph is known at build time: the bootstrap chunk group and the shell's provided shared
 * modules (which loaded-first always takes from the shell). Preloading them from index.html
 * turns the waves into one parallel download. Chunks reached only as a consume fallback are
 * never used by the shell (its own provided versions are in the scope first) and are skipped.
 */
function injectBootPreloads(stats, outputPath) {
  const { chunks } = stats.toJson({ all: false, chunks: true, chunkOrigins: true });
  const files = new Set();
  for (const chunk of chunks) {
    if (chunk.initial) continue; // main.js is already a <script>
    const boot = chunk.origins.some((o) => o.request === './bootstrap.js' || (o.moduleIdentifier ?? '').startsWith('provide shared module'));
    if (boot) for (const file of chunk.files) if (/\.(js|css)$/.test(file)) files.add(file);
  }
  const htmlFile = path.join(outputPath, 'index.html');
  const publicPath = '/';
  const links = [...files].sort().map((file) => `<link rel="preload" href="${publicPath}${file}" as="${file.endsWith('.css') ? 'style' : 'script'}">`).join('');
  // Chrome gives a deferred script low priority and holds it back behind the preloads below
  // while the head is parsed: main.js arrived last (~0.5 s) and everything waited for it.
  const html = fs.readFileSync(htmlFile, 'utf8').replace(/<script defer src="([^"]+)"><\/script>/, '<script defer fetchpriority="high" src="$1"></script>');
  // After main.js's <script defer>: the MF runtime is fetched first, the rest alongside.
  fs.writeFileSync(htmlFile, html.replace('</head>', `${links}</head>`));
}

function outputDirOf(dir) {
  return dir === 'shell' ? WEB_DIR : path.join(WEB_DIR, 'remotes', dir);
}

/** The manifest the server serves statically: remote name → entry URL on the same origin. */
export function writeRemoteManifest(entries = Object.fromEntries(REMOTES.map((r) => [r.name, `/remotes/${r.dir}/remoteEntry.js`]))) {
  fs.mkdirSync(WEB_DIR, { recursive: true });
  fs.writeFileSync(path.join(WEB_DIR, 'remotes.json'), `${JSON.stringify(entries, null, 2)}\n`);
}

/**
 * A content hash of a remote's built files: the same sources give the same id, so a rebuild
 * lands in the same versioned folder and a changed build never overwrites a deployed one.
 */
function buildIdOf(folder) {
  const hash = crypto.createHash('sha256');
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (!/\.(br|gz|map)$/.test(entry.name) && entry.name !== 'remote.json') hash.update(path.relative(folder, file)).update(fs.readFileSync(file));
    }
  };
  walk(folder);
  return hash.digest('hex').slice(0, 10);
}

/**
 * `remote.json` beside a remote's entry: who it is and what it was built against. The shell
 * reads it (through the server's /remotes.json) before mounting the remote.
 */
export function writeRemoteInfo(dir, folder) {
  const remote = REMOTES.find((r) => r.dir === dir);
  const own = readPackage(path.join(ROOT, dir));
  const info = { name: remote.name, package: own.name, version: own.version, buildId: buildIdOf(folder), builtAt: new Date().toISOString(), ...PLATFORM };
  fs.writeFileSync(path.join(folder, 'remote.json'), `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

function cleanOutput(dir) {
  const out = outputDirOf(dir);
  if (dir !== 'shell') return fs.rmSync(out, { recursive: true, force: true });
  // The shell's folder also holds the remotes: keep them when only the shell is rebuilt.
  if (!fs.existsSync(out)) return;
  for (const entry of fs.readdirSync(out)) if (entry !== 'remotes') fs.rmSync(path.join(out, entry), { recursive: true, force: true });
}

export function run(compiler) {
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

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) copies of every JS, CSS, JSON and HTML file of
 * 1 KB or more; the server sends them with `preCompressed` (server/src/plugins/external/web.ts).
 * Compressing once at build time lets us use the slowest, smallest settings for free.
 */
export async function precompress(dir, skip = []) {
  const jobs = [];
  const walk = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skip.includes(path.relative(dir, file))) walk(file);
      } else if (/\.(js|css|json|html)$/.test(entry.name) && fs.statSync(file).size >= 1024) {
        const data = fs.readFileSync(file);
        jobs.push(
          brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } })
            .then((out) => fs.promises.writeFile(`${file}.br`, out)),
          gzip(data, { level: 9 }).then((out) => fs.promises.writeFile(`${file}.gz`, out)),
        );
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  await Promise.all(jobs);
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
  for (const config of configs) {
    const stats = await run(rspack(config));
    if (config.name === 'shell') injectBootPreloads(stats, config.output.path);
    else writeRemoteInfo(config.name, config.output.path);
  }
  if (!only || only === 'shell') writeRemoteManifest();
  await Promise.all(targets.map((dir) => precompress(outputDirOf(dir), dir === 'shell' ? ['remotes'] : [])));
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
