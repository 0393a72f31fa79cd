import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from './common.js';

/** Workspace (contract §2.3): the SDK indexes exactly these keys. */
export const Workspace = Type.Object({
  id: Uuid,
  name: Type.String(),
  inserted_at: Timestamp,
  updated_at: Timestamp,
});
export type Workspace = Static<typeof Workspace>;

/** `POST /workspaces`: names are unique server-wide; no character rule on the server. */
export const WorkspaceCreateBody = Type.Object({
  id: Nullable(Uuid),
  name: Type.String({ minLength: 1 }),
});
export type WorkspaceCreateBody = Static<typeof WorkspaceCreateBody>;

/** `POST /workspaces/{workspace_id}/users` */
export const WorkspaceUserCreateBody = Type.Object({ user_id: Uuid });
export type WorkspaceUserCreateBody = Static<typeof WorkspaceUserCreateBody>;

export const WorkspaceIdParams = Type.Object({ workspace_id: Uuid });
export type WorkspaceIdParams = Static<typeof WorkspaceIdParams>;

export const WorkspaceUserParams = Type.Object({ workspace_id: Uuid, user_id: Uuid });
export type WorkspaceUserParams = Static<typeof WorkspaceUserParams>;
