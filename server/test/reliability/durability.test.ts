import { describe, expect, it } from 'vitest';
import { runDurability } from './durability-scenario.js';

/**
 * The real server as a child process, SIGKILLed twice in the middle of bulk upserts, response
 * submissions and a Hub import, then restarted on the same data folder: every acknowledged write
 * is there, no batch is half-written, record statuses match their responses, jobs end final.
 */
describe('durability under kill -9', () => {
  it('loses no acknowledged write and leaves no half-written batch', async () => {
    const report = await runDurability({ cycles: 2 });
    expect(report.problems).toEqual([]);
    expect(report.kills).toBe(2);
    expect(report.ackedBatches).toBeGreaterThan(0);
    expect(report.ackedResponses).toBeGreaterThan(0);
    expect(report).toMatchObject({ lostWrites: 0, halfWrittenBatches: 0, statusMismatches: 0, jobsNotFinal: 0 });
  }, 120_000);
});
