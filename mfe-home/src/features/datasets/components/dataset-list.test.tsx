import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { DatasetList } from './dataset-list.js';

const dataset = (id: string, name: string, workspace_id: string) => ({
  id, name, workspace_id, status: 'ready', guidelines: null, allow_extra_metadata: true, metadata: null,
  distribution: { strategy: 'overlap', min_submitted: 1 },
  inserted_at: '2026-01-01T00:00:00', updated_at: '2026-01-01T00:00:00', last_activity_at: '2026-01-01T00:00:00',
});

describe('DatasetList', () => {
  afterEach(cleanup);
  beforeEach(() => {
    queryClient.clear();
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      if (url.endsWith('/me/datasets')) return Response.json({ items: [dataset('1', 'reviews', 'w1'), dataset('2', 'news', 'w2')] });
      if (url.endsWith('/me/workspaces')) return Response.json({ items: [{ id: 'w1', name: 'team' }, { id: 'w2', name: 'other' }] });
      return Response.json({ id: 'u', username: 'owner', role: 'owner', api_key: 'k', first_name: 'o', last_name: null });
    }));
  });

  it('counts, searches and links each dataset to annotation mode', async () => {
    render(<RemoteProviders><DatasetList /></RemoteProviders>);
    expect(screen.getByTestId('datasets-count').textContent).toBe(''); // loading: no count yet
    expect(await screen.findByText('2 datasets found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'reviews' }).getAttribute('href')).toBe('/dataset/1/annotation-mode');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search datasets' }), { target: { value: 'new' } });
    expect(screen.getByText('1 dataset found')).toBeTruthy();
  });

  it('filters with the UI kit\'s fields: a search with a clear button, named drop-downs', async () => {
    render(<RemoteProviders><DatasetList /></RemoteProviders>);
    expect(await screen.findByText('2 datasets found')).toBeTruthy();
    const search = screen.getByRole('searchbox', { name: 'Search datasets' });
    expect(search.closest('.sch-search')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'new' } });
    expect(screen.getByText('1 dataset found')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(screen.getByText('2 datasets found')).toBeTruthy();
    const workspace = screen.getByRole('combobox', { name: 'Workspace' });
    expect(workspace.closest('.sch-select')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Sort by' }).closest('.sch-select')).toBeTruthy();
    fireEvent.change(workspace, { target: { value: 'w2' } });
    expect(screen.getByText('1 dataset found')).toBeTruthy();
  });

  it('shows the empty state, worded for an annotator', async () => {
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      if (url.endsWith('/me/datasets') || url.endsWith('/me/workspaces')) return Response.json({ items: [] });
      return Response.json({ id: 'u', username: 'ann', role: 'annotator', api_key: 'k', first_name: 'a', last_name: null });
    }));
    render(<RemoteProviders><DatasetList /></RemoteProviders>);
    expect(await screen.findByRole('heading', { name: 'There are no datasets yet' })).toBeTruthy();
    expect(screen.getByText('0 datasets found')).toBeTruthy();
    expect(await screen.findByText('Ask an administrator to upload records to a dataset of your workspace.')).toBeTruthy();
  });
});
