import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { ImportFromPython } from './import-from-python.js';

function serve(role: string) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    if (url.endsWith('/me/workspaces')) return Response.json({ items: [{ id: 'w1', name: 'team' }] });
    return Response.json({ id: 'u', username: 'someone', role, api_key: 'the.api.key', first_name: 's', last_name: null });
  }));
}

describe('ImportFromPython', () => {
  afterEach(cleanup);
  beforeEach(() => queryClient.clear());

  it("gives admins a copyable snippet with this server's URL, their API key and their workspace", async () => {
    serve('admin');
    render(<RemoteProviders><ImportFromPython /></RemoteProviders>);
    const code = await screen.findByText(/import argilla as rg/);
    await vi.waitFor(() => expect(code.textContent).toContain('workspace="team"'));
    expect(code.textContent).toContain(`rg.Argilla(api_url="${window.location.origin}", api_key="the.api.key")`);
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
  });

  it('tells annotators to ask an administrator instead of showing a snippet they cannot run', async () => {
    serve('annotator');
    render(<RemoteProviders><ImportFromPython /></RemoteProviders>);
    expect((await screen.findByRole('note')).textContent)
      .toBe('Only admins and owners can add datasets and records from Python. Ask an administrator to upload records.');
    expect(screen.queryByText(/import argilla/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copy code' })).toBeNull();
  });
});
