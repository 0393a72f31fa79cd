import { fetchCached, CACHE_LIFETIME, cachedGet } from './query-client.js';
import type { EnvironmentSettings } from './types.js';

export const environmentQuery = () =>
  cachedGet<EnvironmentSettings>('v1/settings', {}, { lifetime: CACHE_LIFETIME.LARGE, repositoryCode: 'ERROR_FETCHING_ENVIRONMENT_SETTINGS' });

export const getEnvironment = () => fetchCached<EnvironmentSettings>('v1/settings', {}, {
  lifetime: CACHE_LIFETIME.LARGE, repositoryCode: 'ERROR_FETCHING_ENVIRONMENT_SETTINGS',
});

/** The hub-hosted variant is recognised by the `huggingface` block of the settings (contract §2.1). */
export function isHubSpace(settings: EnvironmentSettings | undefined): boolean {
  return Boolean(settings?.huggingface);
}
