import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BulkView } from './bulk-view.js';
import { useBulkView } from './use-bulk-view.js';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
});

type State = ReturnType<typeof useBulkView>;

async function renderHook(wanted: boolean, load?: () => Promise<typeof BulkView>) {
  const states: State[] = [];
  function Probe({ on }: { on: boolean }) {
    states.push(useBulkView(on, load));
    return null;
  }
  root = createRoot(document.createElement('div'));
  await act(async () => root!.render(<Probe on={wanted} />));
  return { latest: () => states.at(-1)!, rerender: (on: boolean) => act(async () => root!.render(<Probe on={on} />)) };
}

describe('useBulkView', () => {
  it('loads the bulk view only once bulk mode is wanted', async () => {
    const load = vi.fn(async () => BulkView);
    const hook = await renderHook(false, load);
    expect(load).not.toHaveBeenCalled();
    expect(hook.latest().View).toBeUndefined();
    await hook.rerender(true);
    expect(load).toHaveBeenCalledTimes(1);
    expect(hook.latest().View).toBe(BulkView);
  });

  it('loads the real chunk', async () => {
    const hook = await renderHook(true);
    await vi.waitFor(() => expect(hook.latest().View).toBe(BulkView));
  });

  it('reports a failed load, and loads on retry', async () => {
    const load = vi.fn<() => Promise<typeof BulkView>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(BulkView);
    const hook = await renderHook(true, load);
    expect(hook.latest()).toMatchObject({ View: undefined, failed: true });
    await act(async () => hook.latest().retry());
    expect(hook.latest()).toMatchObject({ View: BulkView, failed: false });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
