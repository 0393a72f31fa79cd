import type { Workspace } from '@scholia/shared/contract';
import { presentTimestamp } from '../../lib/time.js';
import type { WorkspaceRow } from '../../storage/tables.js';

/** Contract §2.3: the SDK indexes exactly these keys. */
export function presentWorkspace(workspace: WorkspaceRow): Workspace {
  return {
    id: workspace.id,
    name: workspace.name,
    inserted_at: presentTimestamp(workspace.inserted_at),
    updated_at: presentTimestamp(workspace.updated_at),
  };
}
