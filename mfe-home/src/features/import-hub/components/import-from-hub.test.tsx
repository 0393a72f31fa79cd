import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { ImportFromHub } from './import-from-hub.js';

const serve = (role: string) =>
  vi.stubGlobal('fetch', vi.fn(async () => Response.json({ id: 'u', username: 'someone', role, api_key: 'k', first_name: 's', last_name: null })));

describe('ImportFromHub', () => {
  afterEach(cleanup);
  beforeEach(() => queryClient.clear());

  it('offers admins and owners the hub import', async () => {
    serve('owner');
    render(<RemoteProviders><ImportFromHub /></RemoteProviders>);
    expect(await screen.findByRole('button', { name: 'Import dataset' })).toBeTruthy();
  });

  it('shows annotators nothing of it: they cannot create datasets', async () => {
    serve('annotator');
    render(<RemoteProviders><ImportFromHub /></RemoteProviders>);
    // Once the user is known (the role decides), the block stays away.
    await vi.waitFor(() => expect(queryClient.getQueryCache().getAll().some((query) => query.state.status === 'success')).toBe(true));
    expect(screen.queryByTestId('import-from-hub')).toBeNull();
  });
});
