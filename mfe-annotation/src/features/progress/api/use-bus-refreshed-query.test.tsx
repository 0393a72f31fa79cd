import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import { RemoteProviders } from '@scholia/shared/ui';
import { AnnotationOverview } from '../components/annotation-overview.js';
import { REFRESH_INTERVAL_MS } from './use-bus-refreshed-query.js';

describe('progress refresh through the bus', () => {
  afterEach(cleanup);

  it('re-reads at once on the first request, then at most once per interval, never dropping the last', async () => {
    queryClient.clear();
    let completed = 0;
    const progressCalls = vi.fn();
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      if (!url.endsWith('/progress')) return Response.json({ id: 'd1', name: 'reviews' });
      progressCalls();
      return Response.json({ total: 10, completed, pending: 10 - completed, users: [] });
    }));
    render(<RemoteProviders><AnnotationOverview datasetId="d1" /></RemoteProviders>);
    await waitFor(() => expect(screen.getByTestId('annotation-progress').textContent).toContain('0 of 10'));
    expect(progressCalls).toHaveBeenCalledTimes(1);

    // Three answers in a row: one re-read, right away.
    completed = 3;
    act(() => {
      for (let i = 0; i < 3; i++) bus.emit('progress:refresh-requested', { datasetId: 'd1' });
    });
    await waitFor(() => expect(screen.getByTestId('annotation-progress').textContent).toContain('3 of 10'));
    expect(progressCalls).toHaveBeenCalledTimes(2);

    // Another answer within the interval: read once more, when the interval is over.
    completed = 4;
    const asked = Date.now();
    act(() => bus.emit('progress:refresh-requested', { datasetId: 'd1' }));
    await waitFor(() => expect(screen.getByTestId('annotation-progress').textContent).toContain('4 of 10'), { timeout: 3000 });
    expect(progressCalls).toHaveBeenCalledTimes(3);
    expect(Date.now() - asked).toBeGreaterThanOrEqual(REFRESH_INTERVAL_MS - 100);

    // Other datasets are none of this view's business.
    act(() => bus.emit('progress:refresh-requested', { datasetId: 'other' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(progressCalls).toHaveBeenCalledTimes(3);
  });
});
