import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readExportJob, storeExportJob } from '@scholia/shared/api';
import { failWith, fakeApi, makeDataset } from '../../test/fake-api.js';
import { renderRemote } from '../../test/render.js';
import { HubExportForm } from './hub-export-form.js';

describe('Export to the Hugging Face Hub', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);
  const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Export' }));

  it('shows every validation message next to its input and sends nothing', async () => {
    const api = fakeApi({});
    renderRemote(<HubExportForm dataset={makeDataset()} />);
    fireEvent.change(screen.getByLabelText('Dataset name'), { target: { value: '' } });
    submit();
    expect(await screen.findByText('Organization or username is required')).toBeTruthy();
    expect(screen.getByText('Dataset name is required')).toBeTruthy();
    expect(screen.getByText('Hugging Face token is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Hugging Face token'), { target: { value: 'abc' } });
    expect(await screen.findByText('Invalid Hugging Face token')).toBeTruthy();
    expect(api.writes()).toEqual([]);
  });

  it('keeps the job id in local storage and follows it until it ends, with a toast', async () => {
    let polls = 0;
    const api = fakeApi({
      'POST v1/datasets/d1/export': { id: 'job-1', status: 'queued' },
      'GET v1/jobs/job-1': () => ({ id: 'job-1', status: ++polls < 2 ? 'started' : 'finished' }),
    });
    renderRemote(<HubExportForm dataset={makeDataset()} />);
    fireEvent.change(screen.getByLabelText('Organization or username'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Hugging Face token'), { target: { value: 'hf_write_alice' } });
    fireEvent.click(screen.getByLabelText('Private repository'));
    submit();
    await screen.findByTestId('export-job-status');
    expect(api.writes()[0].body).toEqual({ name: 'alice/reviews', subset: 'default', split: 'train', private: true, token: 'hf_write_alice' });
    expect(readExportJob('d1')).toMatchObject({ jobId: 'job-1', datasetName: 'reviews', repoId: 'alice/reviews' });
    await waitFor(() => expect(screen.getByTestId('export-job-outcome').textContent)
      .toBe('The dataset reviews was exported to the Hugging Face Hub as alice/reviews.'), { timeout: 5000 });
    expect(readExportJob('d1')).toBeUndefined();
    expect(api.toasts).toContainEqual({ message: 'The dataset reviews was exported to the Hugging Face Hub as alice/reviews.', type: 'success' });
  });

  it('picks a stored job up again after a reload; a failed lookup counts as failed', async () => {
    storeExportJob({ jobId: 'gone', datasetId: 'd1', datasetName: 'reviews', repoId: 'alice/reviews', startedAt: '2026-01-01T00:00:00Z' });
    const api = fakeApi({ 'GET v1/jobs/gone': () => failWith(404, { detail: 'Job with id `gone` not found' }) });
    renderRemote(<HubExportForm dataset={makeDataset()} />);
    expect(await screen.findByTestId('export-job-outcome')).toBeTruthy();
    expect(api.toasts).toEqual([{ message: 'The export of reviews to the Hugging Face Hub did not finish (failed).', type: 'danger' }]);
    expect(readExportJob('d1')).toBeUndefined();
  });

  it('says why a failed export failed', async () => {
    storeExportJob({ jobId: 'job-2', datasetId: 'd1', datasetName: 'reviews', repoId: 'alice/reviews', startedAt: '2026-01-01T00:00:00Z' });
    const api = fakeApi({ 'GET v1/jobs/job-2': { id: 'job-2', status: 'failed', error: 'The Hugging Face token cannot write to this repository' } });
    renderRemote(<HubExportForm dataset={makeDataset()} />);
    const message = 'The export of reviews to the Hugging Face Hub failed: The Hugging Face token cannot write to this repository';
    expect((await screen.findByTestId('export-job-outcome')).textContent).toBe(message);
    expect(api.toasts).toEqual([{ message, type: 'danger' }]);
  });

  it("shows the server's error when the export cannot start", async () => {
    fakeApi({ 'POST v1/datasets/d1/export': () => failWith(422, { detail: 'Dataset with id `d1` has no records to export' }) });
    renderRemote(<HubExportForm dataset={makeDataset()} />);
    fireEvent.change(screen.getByLabelText('Organization or username'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Hugging Face token'), { target: { value: 'hf_x' } });
    submit();
    expect((await screen.findByTestId('export-server-error')).textContent).toBe('Dataset with id `d1` has no records to export');
    expect(readExportJob('d1')).toBeUndefined();
  });
});
