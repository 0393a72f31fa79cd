import fs from 'node:fs';
import path from 'node:path';

/** What the shell reads from `<meta name="scholia-boot">` (shell/src/remotes/route-remote-preload.ts). */
export interface BootManifest {
  /** remotes.json as written by the build: remote name → entry URL. */
  remotes: Record<string, string>;
  /** Remote name → the files of its `./App` expose, to preload while the shell boots. */
  app: Record<string, string[]>;
}

interface MfManifest {
  exposes?: { name: string; assets?: { js?: { sync?: string[] }; css?: { sync?: string[] } } }[];
}

const readJson = <T>(file: string): T | undefined => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined; // missing or half-written during a deploy: the shell then fetches it
  }
};

/**
 * The remote manifest and each same-origin remote's App files, read per request (a remote can
 * be redeployed without a restart). Inlined, they save the shell two serial round trips at
 * boot (remotes.json, then mf-manifest.json) before it can fetch the page's remote.
 */
export function readBootManifest(webDir: string): BootManifest | undefined {
  const remotes = readJson<Record<string, string>>(path.join(webDir, 'remotes.json'));
  if (!remotes) return undefined;
  const app: Record<string, string[]> = {};
  for (const [name, entry] of Object.entries(remotes)) {
    if (!entry.startsWith('/') || entry.startsWith('//')) continue; // another origin: not ours to read
    const base = path.posix.dirname(entry);
    const assets = readJson<MfManifest>(path.join(webDir, path.normalize(base), 'mf-manifest.json'))
      ?.exposes?.find((e) => e.name === 'App')?.assets;
    if (assets) app[name] = [...assets.js?.sync ?? [], ...assets.css?.sync ?? []].map((file) => `${base}/${file}`);
  }
  return { remotes, app };
}

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/**
 * index.html with the boot manifest in a `<meta>` content attribute: inert markup, so the CSP
 * (no inline scripts) and the XSS checks (no script elements without a same-origin src) hold.
 */
export function renderIndexHtml(html: string, manifest: BootManifest | undefined): string {
  if (!manifest) return html;
  const content = JSON.stringify(manifest).replace(/[&"<>]/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
  // The page's preload of remotes.json (for servers that inline nothing) is then a wasted request.
  return html.replace(/<link rel="preload" href="\/remotes\.json"[^>]*>/, '')
    .replace('</head>', `<meta name="scholia-boot" content="${content}"></head>`);
}
