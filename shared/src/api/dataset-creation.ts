import { createField, createMetadataProperty, createQuestion } from './dataset-settings.js';
import { createDataset, deleteDataset, importDataset, publishDataset, type ImportDatasetBody } from './datasets.js';
import { waitForImportedRecords, type ImportWaitOptions, type ImportWaitResult } from './import-jobs.js';
import type { Field, MetadataProperty, Question } from './types.js';
import { createWorkspace } from './workspaces.js';

/** One source column → target name pair. */
export interface HubMappingPair {
  source: string;
  target: string;
}

/** The `mapping` of the import call and of the dataset's metadata (spec §3 Hub mapping). */
export interface HubImportMapping {
  fields: HubMappingPair[];
  metadata: HubMappingPair[];
  suggestions: HubMappingPair[];
  external_id: string | null;
}

/** Everything the creation sequence needs; the editor in mfe-hub-import builds it. */
export interface DatasetCreationPlan {
  name: string;
  /** An existing workspace (with id) or one to create (name only). */
  workspace: { id?: string; name: string };
  repoId: string;
  subset: string;
  split: string;
  fields: Pick<Field, 'name' | 'title' | 'required' | 'settings'>[];
  questions: (Pick<Question, 'name' | 'title' | 'required' | 'settings'> & { description?: string | null })[];
  metadataProperties: Pick<MetadataProperty, 'name' | 'title' | 'settings'>[];
  mapping: HubImportMapping;
}

/** Where the sequence is; the editor shows it while it runs. */
export type CreationStep = 'workspace' | 'dataset' | 'fields' | 'questions' | 'metadata' | 'publish' | 'import' | 'records';

/** The calls of the sequence, injectable for tests; defaults are the shared API client's. */
export interface DatasetCreationApi {
  createWorkspace(name: string): Promise<{ id: string }>;
  createDataset: typeof createDataset;
  createField: typeof createField;
  createQuestion: typeof createQuestion;
  createMetadataProperty: typeof createMetadataProperty;
  publishDataset(id: string): Promise<unknown>;
  importDataset(id: string, body: ImportDatasetBody): Promise<{ id: string }>;
  waitForImportedRecords(datasetId: string, jobId: string, options?: ImportWaitOptions): Promise<ImportWaitResult>;
  deleteDataset(id: string): Promise<boolean>;
}

export const defaultCreationApi: DatasetCreationApi = {
  createWorkspace, createDataset, createField, createQuestion, createMetadataProperty, publishDataset, importDataset,
  waitForImportedRecords, deleteDataset,
};

export interface DatasetCreationResult {
  datasetId: string;
  workspaceId: string;
  jobId: string;
  records: ImportWaitResult;
}

export interface DatasetCreationOptions {
  api?: DatasetCreationApi;
  onStep?: (step: CreationStep) => void;
  wait?: ImportWaitOptions;
}

/** Raised when the sequence failed; `step` says where, the dataset (if any) was deleted. */
export class DatasetCreationError extends Error {
  override readonly name = 'DatasetCreationError';
  constructor(readonly step: CreationStep, options?: { cause?: unknown }) {
    super(`Dataset creation failed at step ${step}`, options);
  }
}

/**
 * Spec §4 "Dataset creation from the hub": create the workspace if it has no id; create the
 * dataset (metadata {repoId, subset, split, mapping, imported:"UI"}); each field, question and
 * metadata property; publish; import; poll until records exist. On any failure after the dataset
 * exists it is deleted and nothing is returned (the error says which step failed).
 */
export async function createDatasetFromHub(plan: DatasetCreationPlan, options: DatasetCreationOptions = {}): Promise<DatasetCreationResult> {
  const api = options.api ?? defaultCreationApi;
  let step: CreationStep = 'workspace';
  const enter = (next: CreationStep) => {
    step = next;
    options.onStep?.(next);
  };

  enter('workspace');
  let workspaceId = plan.workspace.id;
  try {
    if (!workspaceId) workspaceId = (await api.createWorkspace(plan.workspace.name)).id;
    enter('dataset');
  } catch (cause) {
    throw new DatasetCreationError(step, { cause });
  }

  let datasetId: string;
  try {
    const dataset = await api.createDataset({
      name: plan.name,
      workspace_id: workspaceId,
      metadata: { repoId: plan.repoId, subset: plan.subset, split: plan.split, mapping: plan.mapping, imported: 'UI' },
    });
    datasetId = dataset.id;
  } catch (cause) {
    throw new DatasetCreationError(step, { cause });
  }

  try {
    enter('fields');
    for (const field of plan.fields) await api.createField(datasetId, field);
    enter('questions');
    for (const question of plan.questions) await api.createQuestion(datasetId, question);
    enter('metadata');
    for (const property of plan.metadataProperties) await api.createMetadataProperty(datasetId, property);
    enter('publish');
    await api.publishDataset(datasetId);
    enter('import');
    const job = await api.importDataset(datasetId, { name: plan.repoId, subset: plan.subset, split: plan.split, mapping: plan.mapping });
    enter('records');
    const records = await api.waitForImportedRecords(datasetId, job.id, options.wait);
    if (records.outcome === 'failed') throw new Error(`import job ${job.id} ended ${records.jobStatus}`);
    return { datasetId, workspaceId, jobId: job.id, records };
  } catch (cause) {
    // Never leave half a dataset behind; a failing delete must not hide the original error.
    await api.deleteDataset(datasetId).catch(() => false);
    throw new DatasetCreationError(step, { cause });
  }
}
