import { describe, expect, it } from 'vitest';
import type { Dataset } from '@scholia/shared/api';
import { buildPythonSnippet } from '../import-python/python-snippet.js';
import { filterDatasets } from './filter-datasets.js';

const ds = (name: string, ws: string, inserted: string, updated: string) =>
  ({ id: name, name, workspace_id: ws, inserted_at: inserted, updated_at: updated }) as Dataset;

const all = [
  ds('beta', 'w1', '2026-01-02T00:00:00', '2026-01-05T00:00:00'),
  ds('Alpha', 'w2', '2026-01-03T00:00:00', '2026-01-04T00:00:00'),
  ds('gamma', 'w1', '2026-01-01T00:00:00', '2026-01-06T00:00:00'),
];

describe('filterDatasets', () => {
  it('sorts by name, updated and created', () => {
    expect(filterDatasets(all, { search: '', sort: 'name', workspaceId: '' }).map((d) => d.name)).toEqual(['Alpha', 'beta', 'gamma']);
    expect(filterDatasets(all, { search: '', sort: 'updated', workspaceId: '' }).map((d) => d.name)).toEqual(['gamma', 'beta', 'Alpha']);
    expect(filterDatasets(all, { search: '', sort: 'created', workspaceId: '' }).map((d) => d.name)).toEqual(['Alpha', 'beta', 'gamma']);
  });

  it('searches by name and filters by workspace', () => {
    expect(filterDatasets(all, { search: 'AL', sort: 'name', workspaceId: '' }).map((d) => d.name)).toEqual(['Alpha']);
    expect(filterDatasets(all, { search: '', sort: 'name', workspaceId: 'w1' }).map((d) => d.name)).toEqual(['beta', 'gamma']);
  });
});

describe('buildPythonSnippet', () => {
  it('connects with the origin and key, creates a dataset with rg.Settings and logs records', () => {
    const code = buildPythonSnippet({ apiUrl: 'http://localhost:6900', apiKey: 'k"1', workspace: 'team' });
    expect(code).toContain('client = rg.Argilla(api_url="http://localhost:6900", api_key="k\\"1")');
    expect(code).toContain('settings = rg.Settings(');
    expect(code).toContain('workspace="team"');
    expect(code).toContain('dataset.create()');
    expect(code).toContain('dataset.records.log([');
    expect(code).not.toContain('rg.Workspace(');
  });

  it('creates a workspace when the user has none', () => {
    expect(buildPythonSnippet({ apiUrl: 'http://x', apiKey: 'k' })).toContain('rg.Workspace(name="my_workspace", client=client)');
  });
});
