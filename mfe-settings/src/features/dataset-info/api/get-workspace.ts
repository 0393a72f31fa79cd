import { useQuery } from '@tanstack/react-query';
import { workspaceQuery } from '@scholia/shared/api';

export function useWorkspace(workspaceId: string | undefined) {
  return useQuery({ ...workspaceQuery(workspaceId ?? ''), enabled: Boolean(workspaceId) });
}
