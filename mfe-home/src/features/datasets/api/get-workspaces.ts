import { useQuery } from '@tanstack/react-query';
import { myWorkspacesQuery } from '@scholia/shared/api';

/** GET /api/v1/me/workspaces, for the filter and the workspace names on cards. */
export function useMyWorkspaces() {
  return useQuery(myWorkspacesQuery());
}
