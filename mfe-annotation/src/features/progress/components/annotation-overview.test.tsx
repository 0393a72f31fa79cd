import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { progressPercent } from '../progress-percent.js';
import { AnnotationOverview } from './annotation-overview.js';
import { registerAnnotationI18n } from '../../../i18n/register-annotation-i18n.js';

describe('AnnotationOverview', () => {
  beforeAll(registerAnnotationI18n);
  afterEach(cleanup);

  it('shows the dataset name and its progress, no settings link', async () => {
    queryClient.clear();
    vi.stubGlobal('fetch', vi.fn(async (url: string) => url.endsWith('/progress')
      ? Response.json({ total: 4, completed: 1, pending: 3, users: [] })
      : Response.json({ id: 'd1', name: 'reviews' })));
    render(<RemoteProviders><AnnotationOverview datasetId="d1" /></RemoteProviders>);
    expect(await screen.findByText('reviews')).toBeTruthy();
    expect((await screen.findByTestId('annotation-progress')).textContent).toContain('1 of 4 records completed');
    // The dataset's pending records (the reader's own count is "Still to answer").
    expect(screen.getByTestId('annotation-progress').textContent).toContain('3 pending');
    expect(screen.queryByRole('link', { name: 'Dataset settings' })).toBeNull();
  });

  it('the name and "done/total" on one line, their full text in tooltips and for screen readers', async () => {
    queryClient.clear();
    vi.stubGlobal('fetch', vi.fn(async (url: string) => url.endsWith('/progress')
      ? Response.json({ total: 12, completed: 3, pending: 9, users: [] })
      : Response.json({ id: 'd1', name: 'a-dataset-name-long-enough-to-be-cut-on-a-phone' })));
    render(<RemoteProviders><AnnotationOverview datasetId="d1" /></RemoteProviders>);
    const name = await screen.findByRole('heading', { name: 'a-dataset-name-long-enough-to-be-cut-on-a-phone' });
    expect(name.getAttribute('title')).toBe('a-dataset-name-long-enough-to-be-cut-on-a-phone');
    const progress = await screen.findByTestId('annotation-progress');
    expect(progress.querySelector('[aria-hidden="true"]')?.textContent).toBe('3/12');
    expect(progress.querySelector('.mfe-ann-visually-hidden')?.textContent).toBe('3 of 12 records completed · 25.00% · 9 pending');
    expect(progress.parentElement?.getAttribute('title')).toBe('3 of 12 records completed · 25.00% · 9 pending');
  });

  it('writes the pending count in the browser\'s number format too', async () => {
    queryClient.clear();
    vi.stubGlobal('navigator', { ...navigator, language: 'de-DE' });
    vi.stubGlobal('fetch', vi.fn(async (url: string) => url.endsWith('/progress')
      ? Response.json({ total: 25_000, completed: 3_000, pending: 22_000, users: [] })
      : Response.json({ id: 'd1', name: 'reviews' })));
    try {
      render(<RemoteProviders><AnnotationOverview datasetId="d1" /></RemoteProviders>);
      expect((await screen.findByTestId('annotation-progress')).textContent).toContain('3.000 of 25.000 records completed · 12,00\u00a0% · 22.000 pending');
      // So does the remote's own i18next, which a host page's annotation uses.
      expect(registerAnnotationI18n().t('overview.pending', { ns: 'annotation', count: 22_000 })).toBe('22.000 pending');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('formats the percentage with 2 decimals, in the browser\'s number format', () => {
    expect(progressPercent(1, 3)).toBe('33.33%');
    expect(progressPercent(0, 0)).toBe('0.00%');
    vi.stubGlobal('navigator', { ...navigator, language: 'de-DE' });
    try {
      expect(progressPercent(3, 25)).toBe('12,00\u00a0%');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
