import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { changeLanguage, initI18n } from '../i18n/init-i18n.js';
import { DatasetLoadError } from './dataset-load-error.js';
import { RemoteProviders } from './remote-providers.js';

const show = (error: unknown) => render(<RemoteProviders><DatasetLoadError error={error} /></RemoteProviders>);

describe('a dataset screen that could not open', () => {
  beforeAll(async () => {
    initI18n('en');
    await changeLanguage('en');
  });
  afterEach(cleanup);

  it('says the dataset is gone, with a way home and no retry', () => {
    show(new ApiError({ status: 404, body: { detail: 'Dataset with id `x` not found' } }));
    expect(screen.getByRole('alert').textContent).toContain('This dataset does not exist, or it was deleted.');
    expect(screen.getByRole('link', { name: 'Back to home page' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('says the user has no access', () => {
    show(new ApiError({ status: 403, body: { detail: { code: 'forbidden' } } }));
    expect(screen.getByRole('alert').textContent).toContain('You have no access to this dataset.');
  });

  it('offers a retry when the server is out of reach or failed', () => {
    show(new ApiError({ status: 0 }));
    expect(screen.getByRole('alert').textContent).toContain('The server could not be reached.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    cleanup();
    show(new ApiError({ status: 500 }));
    expect(screen.getByRole('alert').textContent).toContain('This could not be loaded.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
