import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startScriptSettings } from '../../test/start-script.js';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

// Eight Argon2id hashes at once (19 MiB each, on the thread pool), then the anonymous memory left.
const HASH_EIGHT = `
import { hash } from '@node-rs/argon2';
import fs from 'node:fs';
const anonMiB = () => Number(/RssAnon:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const before = anonMiB();
await Promise.all(Array.from({ length: 8 }, (_, i) => hash('password-' + i)));
await new Promise((resolve) => setTimeout(resolve, 200));
console.log(JSON.stringify({ before, after: anonMiB() }));
`;

function anonymousGrowthAfterHashes(env: Record<string, string>): number {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', HASH_EIGHT], { cwd: SERVER_DIR, encoding: 'utf8', env: { ...process.env, ...env } });
  expect(child.stderr).toBe('');
  const { before, after } = JSON.parse(child.stdout) as { before: number; after: number };
  return after - before;
}

describe.skipIf(process.platform !== 'linux')('password hashing memory under npm start’s settings', () => {
  it('gives the hashes’ blocks back to the system (the hasher’s allocator otherwise keeps ~19 MiB a thread)', () => {
    const { env } = startScriptSettings();
    expect(env.MIMALLOC_PURGE_DELAY).toBe('0');
    expect(anonymousGrowthAfterHashes(env)).toBeLessThan(30);
    // Without it the blocks stay: the measure can tell the two apart.
    const { MIMALLOC_PURGE_DELAY: _, ...without } = env;
    expect(anonymousGrowthAfterHashes({ ...without, MIMALLOC_PURGE_DELAY: '10' })).toBeGreaterThan(50);
  });
});
