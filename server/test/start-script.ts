import fs from 'node:fs';
import path from 'node:path';

/**
 * What `npm start` (server/package.json) puts around the compiled server: the allocator settings
 * before `node` and node's flags before the entry file. Benches and tests read them from there, so
 * they run the server as users do without a second copy to keep in step.
 */
export function startScriptSettings(): { env: Record<string, string>; nodeArgs: string[] } {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8')) as { scripts: { start: string } };
  const words = manifest.scripts.start.trim().split(/\s+/);
  const node = words.indexOf('node');
  const env = Object.fromEntries(words.slice(0, node).map((setting) => {
    const at = setting.indexOf('=');
    return [setting.slice(0, at), setting.slice(at + 1)];
  }));
  return { env, nodeArgs: words.slice(node + 1).filter((word) => word.startsWith('--')) };
}
