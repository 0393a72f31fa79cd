import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import nativeMemory from '@scholia/memory-release';
import { createMemoryRelease } from './memory-release.js';

describe('createMemoryRelease', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('releases once, after the asks have stopped for the quiet time', () => {
    vi.useFakeTimers();
    const release = vi.fn();
    const memory = createMemoryRelease(release, { quietMs: 2_000, maxDelayMs: 30_000 });
    memory.soon();
    vi.advanceTimersByTime(1_500);
    memory.soon();
    vi.advanceTimersByTime(1_500);
    expect(release).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(release).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('does not wait longer than the maximum delay while asks keep coming', () => {
    vi.useFakeTimers();
    const release = vi.fn();
    const memory = createMemoryRelease(release, { quietMs: 2_000, maxDelayMs: 10_000 });
    for (let second = 0; second < 25; second++) {
      memory.soon();
      vi.advanceTimersByTime(1_000);
    }
    // Asked every second for 25 s: released at 10 s, then at 20 s (10 s after the next first ask).
    expect(release).toHaveBeenCalledTimes(2);
  });
});

// The addon itself, in a child process so the measure is that process's memory alone: 120 MiB of
// 60 KiB blocks (below the mmap threshold, so in the malloc heap), every other one freed.
const FRAGMENT_AND_RELEASE = `
const fs = require('node:fs');
const addon = require('@scholia/memory-release');
const anonMiB = () => Number(/RssAnon:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const kept = [];
let freed = [];
for (let i = 0; i < 4000; i++) (i % 2 ? freed : kept).push(Buffer.alloc(60 * 1024, 1));
freed = null;
globalThis.gc();
globalThis.gc();
const before = anonMiB();
const released = addon.releaseFreeMemory();
console.log(JSON.stringify({ released, before, after: anonMiB(), kept: kept.length }));
`;

describe.skipIf(process.platform !== 'linux')('@scholia/memory-release on Linux', () => {
  it('is built', () => {
    expect(nativeMemory).not.toBeNull();
  });

  it('returns the heap pages of freed blocks to the system', () => {
    const child = spawnSync(process.execPath, ['--expose-gc', '-e', FRAGMENT_AND_RELEASE], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
      env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' },
    });
    expect(child.stderr).toBe('');
    const { released, before, after, kept } = JSON.parse(child.stdout) as { released: boolean; before: number; after: number; kept: number };
    expect(released).toBe(true);
    expect(kept).toBe(2000);
    // ~117 MiB were freed in 60 KiB holes; most of each hole's pages go back.
    expect(before - after).toBeGreaterThan(80);
  });
});
