import { spawnSync } from 'node:child_process';

/**
 * Runs named shell steps in order, streaming their output, and returns the names of those
 * that failed. Every step runs even after a failure so one report shows everything broken.
 */
export function runSteps(steps) {
  const failed = [];
  for (const step of steps) {
    const started = Date.now();
    console.log(`\n=== ${step.name} ===`);
    const result = spawnSync(step.command, { shell: true, stdio: 'inherit', env: { ...process.env, ...step.env } });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const ok = result.status === 0;
    console.log(`=== ${step.name}: ${ok ? 'ok' : `FAILED (exit ${result.status})`} in ${seconds}s ===`);
    if (!ok) failed.push(step.name);
  }
  return failed;
}
