import { describe, expect, it, vi } from 'vitest';
import { createDatasetFromHub, DatasetCreationError, type DatasetCreationApi, type DatasetCreationPlan } from './dataset-creation.js';
import { waitForImportedRecords } from './import-jobs.js';

const plan: DatasetCreationPlan = {
  name: 'sentiment',
  workspace: { name: 'new-ws' },
  repoId: 'scholia/sentiment',
  subset: 'default',
  split: 'train',
  fields: [{ name: 'text', title: 'text', required: true, settings: { type: 'text', use_markdown: false } }],
  questions: [{ name: 'label', title: 'label', required: true, settings: { type: 'label_selection', options: [] } }],
  metadataProperties: [{ name: 'n_words', title: 'n_words', settings: { type: 'integer' } }],
  mapping: { fields: [{ source: 'text', target: 'text' }], metadata: [], suggestions: [{ source: 'label', target: 'label' }], external_id: 'id' },
};

function fakeApi(failAt?: string) {
  const calls: string[] = [];
  const step = <T,>(name: string, value: T) => vi.fn(async (..._args: unknown[]) => {
    calls.push(name);
    if (name === failAt) throw new Error(`boom at ${name}`);
    return value;
  });
  const api = {
    createWorkspace: step('createWorkspace', { id: 'ws-1' }),
    createDataset: step('createDataset', { id: 'ds-1' }),
    createField: step('createField', {}),
    createQuestion: step('createQuestion', {}),
    createMetadataProperty: step('createMetadataProperty', {}),
    publishDataset: step('publishDataset', {}),
    importDataset: step('importDataset', { id: 'job-1' }),
    waitForImportedRecords: step('waitForImportedRecords', { outcome: 'ready', total: 12, jobStatus: 'finished' }),
    deleteDataset: step('deleteDataset', true),
  };
  return { api: api as unknown as DatasetCreationApi, calls, mocks: api };
}

describe('createDatasetFromHub (spec §4)', () => {
  it('runs the whole sequence in order with the metadata and mapping of the plan', async () => {
    const { api, calls, mocks } = fakeApi();
    const result = await createDatasetFromHub(plan, { api });
    expect(calls).toEqual([
      'createWorkspace', 'createDataset', 'createField', 'createQuestion', 'createMetadataProperty', 'publishDataset',
      'importDataset', 'waitForImportedRecords',
    ]);
    expect(mocks.createWorkspace).toHaveBeenCalledWith('new-ws');
    expect(mocks.createDataset).toHaveBeenCalledWith({
      name: 'sentiment', workspace_id: 'ws-1',
      metadata: { repoId: 'scholia/sentiment', subset: 'default', split: 'train', mapping: plan.mapping, imported: 'UI' },
    });
    expect(mocks.importDataset).toHaveBeenCalledWith('ds-1', { name: 'scholia/sentiment', subset: 'default', split: 'train', mapping: plan.mapping });
    expect(result).toMatchObject({ datasetId: 'ds-1', workspaceId: 'ws-1', jobId: 'job-1' });
  });

  it('does not create a workspace that has an id', async () => {
    const { api, calls } = fakeApi();
    await createDatasetFromHub({ ...plan, workspace: { id: 'ws-9', name: 'x' } }, { api });
    expect(calls).not.toContain('createWorkspace');
  });

  for (const failAt of ['createField', 'createQuestion', 'createMetadataProperty', 'publishDataset', 'importDataset', 'waitForImportedRecords']) {
    it(`deletes the dataset when ${failAt} fails`, async () => {
      const { api, calls, mocks } = fakeApi(failAt);
      await expect(createDatasetFromHub(plan, { api })).rejects.toBeInstanceOf(DatasetCreationError);
      expect(calls.at(-1)).toBe('deleteDataset');
      expect(mocks.deleteDataset).toHaveBeenCalledWith('ds-1');
    });
  }

  it('deletes the dataset when the import job fails', async () => {
    const { api, mocks } = fakeApi();
    mocks.waitForImportedRecords.mockResolvedValueOnce({ outcome: 'failed', total: 0, jobStatus: 'failed' });
    const error = await createDatasetFromHub(plan, { api }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetCreationError);
    expect((error as DatasetCreationError).step).toBe('records');
    expect(mocks.deleteDataset).toHaveBeenCalledWith('ds-1');
  });

  it('has nothing to delete when the dataset itself could not be created', async () => {
    const { api, mocks } = fakeApi('createDataset');
    await expect(createDatasetFromHub(plan, { api })).rejects.toMatchObject({ step: 'dataset' });
    expect(mocks.deleteDataset).not.toHaveBeenCalled();
  });

  it('keeps the original error when the rollback delete fails too', async () => {
    const { api, mocks } = fakeApi('publishDataset');
    mocks.deleteDataset.mockRejectedValueOnce(new Error('delete failed'));
    const error = (await createDatasetFromHub(plan, { api }).catch((e: unknown) => e)) as DatasetCreationError;
    expect(error.step).toBe('publish');
    expect((error.cause as Error).message).toBe('boom at publishDataset');
  });
});

describe('waitForImportedRecords (spec §9: 10 × 3000 ms, goal 10 records)', () => {
  it('polls 10 times 3000 ms apart, then gives up with timeout', async () => {
    const sleep = vi.fn(async () => undefined);
    const getJob = vi.fn(async (id: string) => ({ id, status: 'started' as const }));
    const getProgress = vi.fn(async () => ({ total: 0 }));
    const result = await waitForImportedRecords('ds', 'job', { sleep, getJob, getProgress });
    expect(result.outcome).toBe('timeout');
    expect(getProgress).toHaveBeenCalledTimes(10);
    expect(sleep).toHaveBeenCalledTimes(9);
    expect(sleep).toHaveBeenCalledWith(3000);
  });

  it('stops as soon as 10 records exist', async () => {
    const totals = [0, 4, 10];
    const getProgress = vi.fn(async () => ({ total: totals.shift() ?? 10 }));
    const result = await waitForImportedRecords('ds', 'job', {
      sleep: async () => undefined, getJob: async (id) => ({ id, status: 'started' }), getProgress,
    });
    expect(result).toEqual({ outcome: 'ready', total: 10, jobStatus: 'started' });
    expect(getProgress).toHaveBeenCalledTimes(3);
  });

  it('a finished job with fewer records is ready; a failed one is failed', async () => {
    const base = { sleep: async () => undefined, getProgress: async () => ({ total: 3 }) };
    expect((await waitForImportedRecords('ds', 'job', { ...base, getJob: async (id) => ({ id, status: 'finished' }) })).outcome).toBe('ready');
    expect((await waitForImportedRecords('ds', 'job', { ...base, getJob: async (id) => ({ id, status: 'failed' }) })).outcome).toBe('failed');
  });
});
