import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHubEndpoints, queryClient } from '@scholia/shared/api';
import { changeLanguage } from '@scholia/shared/i18n';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerHubImportTranslations } from '../../../i18n/register-translations.js';
import { RepositoryLookup } from './repository-lookup.js';

const INFO = {
  dataset_info: {
    default: {
      features: { text: { dtype: 'string', _type: 'Value' }, label: { names: ['neg', 'pos'], _type: 'ClassLabel' } },
      splits: { train: { name: 'train', num_examples: 1200 }, test: { name: 'test', num_examples: 60 } },
    },
  },
};

function stubViewer() {
  const fetchMock = vi.fn(async (input: string | URL | Request) => {
    const url = new URL(String(input), 'http://app.test');
    if (url.pathname === '/api/v1/settings') return new Response(JSON.stringify({ argilla: {} }), { status: 200 });
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (url.searchParams.get('dataset') !== 'ns/known') return json(401, { error: 'The dataset does not exist' });
    if (url.pathname === '/info') return json(200, INFO);
    if (url.pathname === '/first-rows') return json(200, { rows: [{ row_idx: 0, row: { text: 'hello world', label: 1 } }] });
    return json(200, { statistics: [{ column_name: 'label', column_type: 'class_label', column_statistics: { frequencies: { neg: 600, pos: 600 } } }] });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('RepositoryLookup (/:id)', () => {
  beforeEach(() => {
    registerHubImportTranslations();
    configureHubEndpoints({ hubUrl: 'http://hub.test', datasetsServerUrl: 'http://viewer.test' });
    queryClient.clear();
  });
  afterEach(cleanup);

  it('shows columns, splits, the first row and statistics of a known repository', async () => {
    const fetchMock = stubViewer();
    render(<RemoteProviders><RepositoryLookup repoId="ns/known" /></RemoteProviders>);
    expect(screen.getByTestId('hub-repo-id').textContent).toBe('ns/known');
    expect(await screen.findByText('hello world')).toBeTruthy();
    expect(screen.getByRole('option', { name: /train/ })).toBeTruthy();
    expect(screen.getByRole('option', { name: /test/ })).toBeTruthy();
    expect(await screen.findByText('neg: 600 · pos: 600')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open on the hub' }).getAttribute('href')).toBe('http://hub.test/datasets/ns/known');
    expect(fetchMock.mock.calls.map((c) => String(c[0]))).toContain('http://viewer.test/info?dataset=ns%2Fknown');
  });

  it('says "Dataset not found or available on Hugging Face", translated', async () => {
    stubViewer();
    render(<RemoteProviders><RepositoryLookup repoId="ns/unknown" /></RemoteProviders>);
    expect((await screen.findByRole('alert')).textContent).toBe('Dataset not found or available on Hugging Face');
    await changeLanguage('es');
    expect((await screen.findByRole('alert')).textContent).toBe('Dataset no encontrado o no disponible en Hugging Face');
    await changeLanguage('en');
  });

  it('says the Hub could not be reached, not that the dataset is missing, when the viewer is out of reach', async () => {
    vi.stubGlobal('fetch', vi.fn(async (input: string | URL | Request) => {
      if (String(input).includes('/api/v1/settings')) return new Response('{}', { status: 200 });
      throw new TypeError('Failed to fetch');
    }));
    render(<RemoteProviders><RepositoryLookup repoId="ns/known" /></RemoteProviders>);
    expect((await screen.findByRole('alert')).textContent).toBe('The Hugging Face Hub could not be reached. Check the connection and try again.');
  });

  it('says the viewer failed, with its status', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"error":"boom"}', { status: 502 })));
    render(<RemoteProviders><RepositoryLookup repoId="ns/known" /></RemoteProviders>);
    expect((await screen.findByRole('alert')).textContent).toBe("The Hub's dataset viewer could not describe this repository (HTTP 502). Try again later.");
  });
});
