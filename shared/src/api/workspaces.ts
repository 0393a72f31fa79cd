import { apiWrite, cachedGet, fetchCached } from './query-client.js';
import type { Items, User, Workspace } from './types.js';

export const myWorkspacesQuery = () =>
  cachedGet<Items<Workspace>>('v1/me/workspaces', {}, { repositoryCode: 'ERROR_FETCHING_WORKSPACES' });

export const workspaceQuery = (id: string) =>
  cachedGet<Workspace>(`v1/workspaces/${id}`, {}, { repositoryCode: 'ERROR_FETCHING_WORKSPACE_INFO' });

/** Members of a workspace (owners and its admins may list them). */
export const workspaceUsersQuery = (id: string) =>
  cachedGet<Items<User>>(`v1/workspaces/${id}/users`, {}, { repositoryCode: 'ERROR_FETCHING_WORKSPACE_INFO' });

export const getWorkspace = (id: string) => fetchCached<Workspace>(`v1/workspaces/${id}`, {}, { repositoryCode: 'ERROR_FETCHING_WORKSPACE_INFO' });

export const createWorkspace = (name: string) =>
  apiWrite<Workspace>('POST', 'v1/workspaces', { json: { name }, repositoryCode: 'CREATE_WORKSPACE' });
