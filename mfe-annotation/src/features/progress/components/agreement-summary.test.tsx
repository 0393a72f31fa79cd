import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerAnnotationI18n } from '../../../i18n/register-annotation-i18n.js';
import { AgreementSummary } from './agreement-summary.js';
import { AnnotationOverview } from './annotation-overview.js';

const agreement = {
  questions: [
    { question: { id: 'q1', name: 'label', type: 'label_selection' }, metric: 'nominal', records: 3, percent_agreement: 66.6667, alpha: 0.4444, annotators: [] },
    { question: { id: 'q2', name: 'rating', type: 'rating' }, metric: 'interval', records: 0, percent_agreement: null, alpha: null, annotators: [] },
  ],
  annotators: [],
};

function serve() {
  const fetch = vi.fn(async (url: string) => {
    if (url.includes('/agreement')) return Response.json(agreement);
    if (url.endsWith('/progress')) return Response.json({ total: 4, completed: 1, pending: 3, users: [] });
    return Response.json({ id: 'd1', name: 'reviews' });
  });
  queryClient.clear();
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('Agreement with the progress', () => {
  beforeAll(registerAnnotationI18n);
  afterEach(cleanup);

  it('shows each measured question to owners and admins', async () => {
    serve();
    render(<RemoteProviders><AgreementSummary datasetId="d1" /></RemoteProviders>);
    expect((await screen.findByTestId('annotation-agreement')).textContent).toBe('Agreement: label 66.7% (α 0.444)');
  });

  it('is not asked for by the progress itself (annotators see no agreement)', async () => {
    const fetch = serve();
    render(<RemoteProviders><AnnotationOverview datasetId="d1" /></RemoteProviders>);
    await screen.findByTestId('annotation-progress');
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/agreement'))).toBe(false);
    expect(screen.queryByTestId('annotation-agreement')).toBeNull();
  });
});
