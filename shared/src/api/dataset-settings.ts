import { apiWrite, cachedGet } from './query-client.js';
import type { Field, Items, MetadataProperty, Question, VectorSettings } from './types.js';

export const fieldsQuery = (datasetId: string) =>
  cachedGet<Items<Field>>(`v1/datasets/${datasetId}/fields`, {}, { repositoryCode: 'ERROR_FETCHING_FIELDS' });
export const createField = (datasetId: string, body: Pick<Field, 'name' | 'title' | 'required' | 'settings'>) =>
  apiWrite<Field>('POST', `v1/datasets/${datasetId}/fields`, { json: body, repositoryCode: 'ERROR_PATCHING_FIELDS' });
export const updateField = (id: string, body: Partial<Pick<Field, 'title' | 'settings'>>) =>
  apiWrite<Field>('PATCH', `v1/fields/${id}`, { json: body, repositoryCode: 'ERROR_PATCHING_FIELDS' });

export const questionsQuery = (datasetId: string) =>
  cachedGet<Items<Question>>(`v1/datasets/${datasetId}/questions`, {}, { repositoryCode: 'ERROR_FETCHING_QUESTIONS' });
export const createQuestion = (
  datasetId: string,
  body: Pick<Question, 'name' | 'title' | 'required' | 'settings'> & Partial<Pick<Question, 'visible_for_annotators'>> & { description?: string | null },
) =>
  apiWrite<Question>('POST', `v1/datasets/${datasetId}/questions`, { json: body, repositoryCode: 'ERROR_PATCHING_QUESTIONS' });
export const updateQuestion = (id: string, body: Partial<Pick<Question, 'title' | 'description' | 'settings' | 'visible_for_annotators'>>) =>
  apiWrite<Question>('PATCH', `v1/questions/${id}`, { json: body, repositoryCode: 'ERROR_PATCHING_QUESTIONS' });

export const vectorsSettingsQuery = (datasetId: string) =>
  cachedGet<Items<VectorSettings>>(`v1/datasets/${datasetId}/vectors-settings`, {}, { repositoryCode: 'ERROR_FETCHING_VECTORS' });
export const updateVectorSettings = (id: string, title: string) =>
  apiWrite<VectorSettings>('PATCH', `v1/vectors-settings/${id}`, { json: { title }, repositoryCode: 'ERROR_PATCHING_VECTORS' });

export const metadataPropertiesQuery = (datasetId: string) =>
  cachedGet<Items<MetadataProperty>>(`v1/me/datasets/${datasetId}/metadata-properties`, {}, { repositoryCode: 'ERROR_FETCHING_METADATA' });
export const createMetadataProperty = (datasetId: string, body: Pick<MetadataProperty, 'name' | 'title' | 'settings'>) =>
  apiWrite<MetadataProperty>('POST', `v1/datasets/${datasetId}/metadata-properties`, { json: body, repositoryCode: 'ERROR_CREATING_METADATA' });
/** Always sends `visible_for_annotators`: the server treats a missing key as false (contract §2.7). */
export const updateMetadataProperty = (id: string, body: { title?: string; visible_for_annotators: boolean }) =>
  apiWrite<MetadataProperty>('PATCH', `v1/metadata-properties/${id}`, { json: body, repositoryCode: 'ERROR_UPDATING_METADATA' });
export const metadataMetricsQuery = (id: string) =>
  cachedGet<{ type: string; values?: { term: unknown; count: number }[]; min?: number | null; max?: number | null }>(
    `v1/metadata-properties/${id}/metrics`, {}, { repositoryCode: 'ERROR_FETCHING_METADATA_METRIC' });

/** Agents per question; a failure here is reported under GET_AGENTS. */
export const suggestionAgentsQuery = (datasetId: string) =>
  cachedGet<Items<{ question: { id: string; name: string }; agents: string[] }>>(
    `v1/datasets/${datasetId}/records/search/suggestions/options`, {}, { repositoryCode: 'GET_AGENTS' });

