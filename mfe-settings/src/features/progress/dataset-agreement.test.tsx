import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { bus } from '@scholia/shared/bus';
import { fakeApi } from '../../test/fake-api.js';
import { renderRemote } from '../../test/render.js';
import { DatasetAgreement } from './dataset-agreement.js';

const figures = (percent: number) => ({
  questions: [
    { question: { id: 'q1', name: 'label', type: 'label_selection' }, metric: 'nominal', records: 3, percent_agreement: percent, alpha: 0.4444, annotators: [] },
    { question: { id: 'q2', name: 'topics', type: 'multi_label_selection' }, metric: 'nominal_per_label', records: 0, percent_agreement: null, alpha: null, annotators: [] },
  ],
  annotators: [{ user_id: 'u2', username: 'ana', records: 3, percent_agreement: percent }],
});

describe('Annotator agreement in the progress section', () => {
  afterEach(cleanup);

  it('shows the measured questions and the annotators, and re-reads them when progress is refreshed', async () => {
    let percent = 66.6667;
    const api = fakeApi({ 'GET v1/datasets/d1/agreement': () => figures(percent) });
    renderRemote(<DatasetAgreement datasetId="d1" />);
    const row = await screen.findByRole('row', { name: /label/ });
    expect(row.textContent).toContain('66.7%');
    expect(row.textContent).toContain('0.444');
    expect(screen.queryByRole('row', { name: /topics/ })).toBeNull();
    expect(screen.getByTestId('settings-agreement-annotators').textContent).toBe('Agreement with the others: ana 66.7%');

    percent = 100;
    bus.emit('progress:refresh-requested', { datasetId: 'd1' });
    await waitFor(() => expect(screen.getByRole('row', { name: /label/ }).textContent).toContain('100.0%'));
    expect(api.calls.filter((c) => c.path === 'v1/datasets/d1/agreement').length).toBe(2);
  });

  it('says so when no record has two submitted responses, in German too', async () => {
    fakeApi({ 'GET v1/datasets/d1/agreement': { questions: [], annotators: [] } });
    renderRemote(<DatasetAgreement datasetId="d1" />, 'de');
    expect(await screen.findByText('Noch kein Eintrag hat zwei abgeschickte Antworten.')).toBeTruthy();
  });
});
