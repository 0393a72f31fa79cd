import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '@scholia/shared/i18n';
import { RemoteProviders } from '@scholia/shared/ui';
import { RepositorySummary } from './repository-summary.js';

describe('RepositorySummary', () => {
  afterEach(cleanup);

  it('shows the repository id it was given', () => {
    render(<RemoteProviders><RepositorySummary repoId="stanfordnlp/imdb" /></RemoteProviders>);
    expect(screen.getByTestId('hub-repo-id').textContent).toBe('stanfordnlp/imdb');
    expect(screen.getByRole('link', { name: 'Open on the hub' }).getAttribute('href')).toBe('https://huggingface.co/datasets/stanfordnlp/imdb');
  });

  it('is translated', async () => {
    render(<RemoteProviders><RepositorySummary /></RemoteProviders>);
    await changeLanguage('es');
    expect(await screen.findByText('No se indicó ningún id de repositorio.')).toBeTruthy();
    await changeLanguage('en');
  });
});
