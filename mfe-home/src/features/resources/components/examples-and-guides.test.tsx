import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { ExamplesAndGuides } from './examples-and-guides.js';

const serve = (role: string) =>
  vi.stubGlobal('fetch', vi.fn(async () => Response.json({ id: 'u', username: 'someone', role, api_key: 'k', first_name: 's', last_name: null })));

const renderBlock = () => render(<RemoteProviders><ExamplesAndGuides /></RemoteProviders>);

describe('ExamplesAndGuides', () => {
  afterEach(cleanup);
  beforeEach(() => queryClient.clear());

  it('offers owners and admins the hub examples', async () => {
    serve('admin');
    renderBlock();
    expect(await screen.findByTestId('hub-examples')).toBeTruthy();
  });

  it('shows annotators the guides but no hub example: they cannot import one', async () => {
    serve('annotator');
    renderBlock();
    await vi.waitFor(() => expect(queryClient.getQueryCache().getAll().some((query) => query.state.status === 'success')).toBe(true));
    expect(screen.queryByTestId('hub-examples')).toBeNull();
    expect(screen.queryByRole('link', { name: 'stanfordnlp/imdb' })).toBeNull();
  });
});
