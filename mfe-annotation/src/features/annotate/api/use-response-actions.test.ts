import { beforeEach, describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({
  saveMyResponse: vi.fn(async () => ({ id: 'resp', status: 'draft', values: null, updated_at: '' })),
  deleteMyResponse: vi.fn(async () => ({})),
  upsertMyResponses: vi.fn(),
  announceResponsesChanged: vi.fn(),
  getCurrentUser: vi.fn(async () => ({ id: 'alice' })),
  fetchCurrentUser: vi.fn(async () => ({ id: 'alice' })),
}));
vi.mock('@scholia/shared/api', async (original) => ({ ...(await original<object>()), ...api }));
const { notify } = vi.hoisted(() => ({ notify: vi.fn() }));
vi.mock('@scholia/shared/bus', async (original) => ({ ...(await original<object>()), notify }));

const { currentOutboxOwner, pushUndo, saveResponse, sendKeptAnswers, undoLast } = await import('./use-response-actions.js');
const { ApiError, pageConnection: page } = await import('@scholia/shared/api');
const { enqueueOffline, readOutbox } = await import('../model/offline-outbox.js');
const { registerAnnotationI18n } = await import('../../../i18n/register-annotation-i18n.js');

describe('undo (Ctrl+Z)', () => {
  beforeEach(() => vi.clearAllMocks());

  it('restores the previous answer, or removes the response the action created', async () => {
    pushUndo(page, { datasetId: 'd1', recordId: 'r1', responseId: 'created', previous: null });
    pushUndo(page, { datasetId: 'd1', recordId: 'r2', responseId: 'resp2', previous: { status: 'draft', values: { q: { value: 'a' } } } });
    await expect(undoLast(page, 'd1')).resolves.toMatchObject({ entry: { recordId: 'r2' }, response: { id: 'resp' } });
    expect(api.saveMyResponse).toHaveBeenCalledWith('r2', 'resp2', { status: 'draft', values: { q: { value: 'a' } } }, { connection: page });
    await undoLast(page, 'd1');
    expect(api.deleteMyResponse).toHaveBeenCalledWith('created', { connection: page });
    expect(api.announceResponsesChanged).toHaveBeenCalledWith('d1', page);
  });

  it("undoes only the open dataset's actions", async () => {
    pushUndo(page, { datasetId: 'other', recordId: 'x', responseId: 'rx', previous: null });
    await expect(undoLast(page, 'd1')).resolves.toBeUndefined();
    expect(api.deleteMyResponse).not.toHaveBeenCalled();
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ type: 'info' }));
    await expect(undoLast(page, 'other')).resolves.toEqual({ entry: expect.objectContaining({ recordId: 'x' }), response: undefined });
    expect(api.deleteMyResponse).toHaveBeenCalledWith('rx', { connection: page });
  });
});

describe('answers kept offline', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    localStorage.clear();
    registerAnnotationI18n();
  });

  it('says which answers the server refused instead of dropping them silently', async () => {
    const alice = await currentOutboxOwner(page);
    enqueueOffline(alice, { datasetId: 'd1', record_id: 'r1', status: 'submitted', values: null });
    enqueueOffline(alice, { datasetId: 'd1', record_id: 'gone', status: 'submitted', values: null });
    api.upsertMyResponses.mockResolvedValueOnce({ items: [
      { item: { id: 'x', status: 'submitted', values: null, updated_at: '' }, error: null },
      { item: null, error: { detail: 'Record not found' } },
    ] });
    await expect(sendKeptAnswers(page, 'd1')).resolves.toEqual({ sent: 1, waiting: false });
    expect(notify).toHaveBeenCalledWith({ message: '1 answer given offline was sent.', type: 'success' });
    expect(notify).toHaveBeenCalledWith({ message: '1 answer given offline was refused: Record gone: Record not found', type: 'danger' });
    expect(api.announceResponsesChanged).toHaveBeenCalledWith('d1', page);
  });

  it("keeps an answer given offline for its annotator: another user signed in next sends nothing of it", async () => {
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    try {
      await saveResponse(page, 'd1', 'r1', undefined, { status: 'submitted', values: { q: { value: 'yes' } } });
    } finally {
      Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
    }
    expect(api.saveMyResponse).not.toHaveBeenCalled();
    // Another tab signed in as bob: this tab's cache still says alice, the server says bob.
    api.fetchCurrentUser.mockResolvedValue({ id: 'bob' });
    await expect(sendKeptAnswers(page, 'd1')).resolves.toMatchObject({ sent: 0 });
    expect(api.upsertMyResponses).not.toHaveBeenCalled();
    api.fetchCurrentUser.mockResolvedValue({ id: 'alice' });
    const alice = await currentOutboxOwner(page);
    expect(alice.serverUrl).toBe(new URL('/api/', location.href).href);
    expect(readOutbox(alice).map((i) => i.record_id)).toEqual(['r1']);
    api.upsertMyResponses.mockImplementationOnce(async (items: { record_id: string }[]) => ({ items: items.map(() => ({ item: { id: 'x', status: 'submitted', values: null, updated_at: '' }, error: null })) }));
    await expect(sendKeptAnswers(page, 'd1')).resolves.toEqual({ sent: 1, waiting: false });
    expect(api.upsertMyResponses).toHaveBeenCalledWith([{ record_id: 'r1', status: 'submitted', values: { q: { value: 'yes' } } }], { globalErrorHandler: false, connection: page });
  });

  it("keeps an answer given offline before the user was ever read, and its annotator sends it once back", async () => {
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    api.getCurrentUser.mockRejectedValueOnce(new ApiError({ status: 0 }));
    try {
      await expect(saveResponse(page, 'd1', 'r9', undefined, { status: 'draft', values: { q: { value: 'offline' } } })).resolves.toMatchObject({ kind: 'kept-offline' });
    } finally {
      Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
    }
    api.upsertMyResponses.mockImplementationOnce(async (items: { record_id: string }[]) => ({ items: items.map(() => ({ item: { id: 'x', status: 'draft', values: null, updated_at: '' }, error: null })) }));
    await expect(sendKeptAnswers(page, 'd1')).resolves.toEqual({ sent: 1, waiting: false });
    expect(api.upsertMyResponses).toHaveBeenCalledWith([{ record_id: 'r9', status: 'draft', values: { q: { value: 'offline' } } }], { globalErrorHandler: false, connection: page });
  });

  it('asks the server who the user is only when some answer is kept', async () => {
    await expect(sendKeptAnswers(page, 'd1')).resolves.toMatchObject({ sent: 0 });
    expect(api.fetchCurrentUser).not.toHaveBeenCalled();
  });

  it('says "kept offline" once while offline, not once per answer, and again after an answer went through', async () => {
    const offline = async (run: () => Promise<unknown>) => {
      Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
      try {
        await run();
      } finally {
        Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
      }
    };
    const keptNotices = () => notify.mock.calls.filter(([toast]) => (toast as { type: string }).type === 'warning').length;
    await saveResponse(page, 'd1', 'a0', undefined, { status: 'draft', values: null }); // online: the server takes it
    await offline(async () => {
      await saveResponse(page, 'd1', 'a1', undefined, { status: 'draft', values: null });
      await saveResponse(page, 'd1', 'a2', undefined, { status: 'draft', values: null });
    });
    expect(keptNotices()).toBe(1);
    await saveResponse(page, 'd1', 'a3', undefined, { status: 'draft', values: null });
    await offline(() => saveResponse(page, 'd1', 'a4', undefined, { status: 'draft', values: null }));
    expect(keptNotices()).toBe(2);
  });
});
