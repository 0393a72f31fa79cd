import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { DatasetInfo } from './dataset-info.js';

describe('DatasetInfo', () => {
  afterEach(cleanup);

  it('shows the dataset read-only with its workspace', async () => {
    queryClient.clear();
    vi.stubGlobal('fetch', vi.fn(async (url: string) => url.includes('/workspaces/')
      ? Response.json({ id: 'w1', name: 'team' })
      : Response.json({
        id: 'd1', name: 'reviews', workspace_id: 'w1', status: 'ready', guidelines: 'Be kind', allow_extra_metadata: true,
        metadata: null, distribution: { strategy: 'overlap', min_submitted: 2 },
        inserted_at: '2026-01-01T00:00:00', updated_at: '2026-01-02T00:00:00', last_activity_at: '2026-01-02T00:00:00',
      })));
    render(<RemoteProviders><DatasetInfo datasetId="d1" /></RemoteProviders>);
    expect((await screen.findByTestId('settings-dataset-name')).textContent).toBe('reviews');
    expect(await screen.findByText('team')).toBeTruthy();
    expect(screen.getByText('Minimum submitted responses: 2')).toBeTruthy();
    expect(screen.getByText('Be kind')).toBeTruthy();
  });
});
