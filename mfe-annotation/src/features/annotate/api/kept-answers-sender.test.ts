import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const { sendKeptAnswers } = vi.hoisted(() => ({ sendKeptAnswers: vi.fn() }));
vi.mock('./use-response-actions.js', async (original) => ({ ...(await original<object>()), sendKeptAnswers }));

const { KEPT_ANSWERS_RETRY, startSendingKeptAnswers } = await import('./kept-answers-sender.js');
const { announceAnswerStored } = await import('./use-response-actions.js');
const { createInstanceConnection } = await import('../../../embed/instance-connection.js');

/** Lets the promises of a try settle without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('sending answers kept in the browser', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sendKeptAnswers.mockReset();
  });
  afterEach(() => vi.useRealTimers());

  it('tries again by itself with growing waits while answers wait, with no online event, and stops once none is left', async () => {
    const connection = createInstanceConnection({ token: 't' });
    const onSent = vi.fn();
    sendKeptAnswers
      .mockRejectedValueOnce(new Error('server down')) // when the screen opens: not even /me answers
      .mockResolvedValueOnce({ sent: 0, waiting: true }) // the bulk write failed
      .mockResolvedValueOnce({ sent: 2, waiting: false }); // the server is back
    const stop = startSendingKeptAnswers(connection, 'd1', onSent);
    await settle();
    expect(sendKeptAnswers).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(KEPT_ANSWERS_RETRY.firstMs);
    expect(sendKeptAnswers).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(KEPT_ANSWERS_RETRY.firstMs);
    expect(sendKeptAnswers).toHaveBeenCalledTimes(2); // the second wait is twice the first
    await vi.advanceTimersByTimeAsync(KEPT_ANSWERS_RETRY.firstMs);
    expect(sendKeptAnswers).toHaveBeenCalledTimes(3);
    expect(onSent).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10 * KEPT_ANSWERS_RETRY.maxMs);
    expect(sendKeptAnswers).toHaveBeenCalledTimes(3);
    expect(sendKeptAnswers).toHaveBeenCalledWith(connection, 'd1');
    stop();
  });

  it('waits at most the longest wait between tries, however long the server stays down', async () => {
    const connection = createInstanceConnection({ token: 't' });
    sendKeptAnswers.mockResolvedValue({ sent: 0, waiting: true });
    const stop = startSendingKeptAnswers(connection, 'd1', vi.fn());
    await vi.advanceTimersByTimeAsync(20 * KEPT_ANSWERS_RETRY.maxMs);
    const tries = sendKeptAnswers.mock.calls.length;
    await vi.advanceTimersByTimeAsync(KEPT_ANSWERS_RETRY.maxMs);
    expect(sendKeptAnswers.mock.calls.length).toBe(tries + 1);
    stop();
    await vi.advanceTimersByTimeAsync(5 * KEPT_ANSWERS_RETRY.maxMs);
    expect(sendKeptAnswers.mock.calls.length).toBe(tries + 1);
  });

  it("sends at once after the next answer the server took, and starts trying when one was kept; another connection's answers change nothing", async () => {
    const connection = createInstanceConnection({ token: 't' });
    const other = createInstanceConnection({ token: 'u' });
    sendKeptAnswers.mockResolvedValue({ sent: 0, waiting: false });
    const stop = startSendingKeptAnswers(connection, 'd1', vi.fn());
    await settle();
    expect(sendKeptAnswers).toHaveBeenCalledTimes(1);
    // An answer kept in the browser: nothing waited before, so a try is planned.
    announceAnswerStored(connection, 'kept-offline');
    await vi.advanceTimersByTimeAsync(KEPT_ANSWERS_RETRY.firstMs);
    expect(sendKeptAnswers).toHaveBeenCalledTimes(2);
    announceAnswerStored(other, 'saved');
    await settle();
    expect(sendKeptAnswers).toHaveBeenCalledTimes(2);
    announceAnswerStored(connection, 'saved');
    await settle();
    expect(sendKeptAnswers).toHaveBeenCalledTimes(3);
    stop();
  });

  it('sends at once when the browser is back online', async () => {
    const connection = createInstanceConnection({ token: 't' });
    sendKeptAnswers.mockResolvedValue({ sent: 0, waiting: false });
    const stop = startSendingKeptAnswers(connection, 'd1', vi.fn());
    await settle();
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(sendKeptAnswers).toHaveBeenCalledTimes(2);
    stop();
  });
});
