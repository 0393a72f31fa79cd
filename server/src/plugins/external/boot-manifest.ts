import type { RegisteredRemote, RemoteRegistry } from '../../remotes/remote-registry.js';

/** What the shell reads from `<meta name="scholia-boot">` (shell/src/remotes/route-remote-preload.ts). */
export interface BootManifest {
  /** What `/remotes.json` answers: remote name → entry, version and what it was built against. */
  remotes: Record<string, RegisteredRemote>;
  /** Remote name → the files of its `./App` expose, to preload while the shell boots. */
  app: Record<string, string[]>;
  /** SCHOLIA_REMOTE_OVERRIDES is on: owners may load a remote from a dev server on localhost. */
  overrides?: true;
}

/**
 * The registered remotes and each one's App files, read per request (a remote can be redeployed
 * or re-registered without a restart). Inlined, they save the shell two serial round trips at
 * boot (remotes.json, then mf-manifest.json) before it can fetch the page's remote.
 */
export async function readBootManifest(registry: RemoteRegistry, overrides = false): Promise<BootManifest | undefined> {
  const [remotes, app] = await Promise.all([registry.describe(), registry.appFiles()]);
  if (Object.keys(remotes).length === 0) return undefined;
  return overrides ? { remotes, app, overrides: true } : { remotes, app };
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
