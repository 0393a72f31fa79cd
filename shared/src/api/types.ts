/**
 * Wire shapes the frontends read (contract §1.4, §2.3, §3.1, §2.4). Kept here, not in
 * `contract/`, because the UI reads a subset and must tolerate the server adding keys.
 */
export type Role = 'owner' | 'admin' | 'annotator';

export interface User {
  id: string;
  username: string;
  first_name: string;
  last_name: string | null;
  role: Role;
  /** Only `GET /me` carries it: a user's key is shown to that user alone. */
  api_key: string;
  inserted_at?: string;
  updated_at?: string;
}

export interface Workspace {
  id: string;
  name: string;
  inserted_at?: string;
  updated_at?: string;
}

export interface Distribution {
  strategy: 'overlap';
  min_submitted: number;
}

export interface Dataset {
  id: string;
  name: string;
  guidelines: string | null;
  allow_extra_metadata: boolean;
  status: 'draft' | 'ready';
  distribution: Distribution;
  metadata: Record<string, unknown> | null;
  workspace_id: string;
  last_activity_at: string;
  inserted_at: string;
  updated_at: string;
}

export interface DatasetProgress {
  total: number;
  completed: number;
  pending: number;
  users: { username: string }[];
}

/** Each annotator's responses by record status (outer), then response status (inner). */
export interface UsersProgress {
  users: { username: string; completed: ResponseStatusCounts; pending: ResponseStatusCounts }[];
}

export interface ResponseStatusCounts {
  submitted: number;
  discarded: number;
  draft: number;
}

export interface DatasetMetrics {
  responses: { total: number; submitted: number; discarded: number; draft: number; pending: number };
}

export interface AccessToken {
  access_token: string;
  token_type: 'bearer';
  /** OAuth sign-in: the username given because the provider's was taken by another account. */
  assigned_username?: string;
}

/** `POST /me/api-key`: the new key, and a token to go on with (the rotation ended the older ones). */
export interface ApiKeyRotation extends AccessToken {
  api_key: string;
}

export interface OAuthProvider {
  name: string;
}

export interface EnvironmentSettings {
  argilla?: {
    share_your_progress_enabled?: boolean;
    show_huggingface_space_persistent_storage_warning?: boolean;
  };
  huggingface?: {
    space_id?: string;
    space_title?: string;
    space_subdomain?: string;
    space_host?: string;
    space_repo_name?: string;
    space_author_name?: string;
    space_persistent_storage_enabled?: boolean;
  };
}

export interface Items<T> {
  items: T[];
}

export interface Field {
  id: string;
  name: string;
  title: string;
  required: boolean;
  settings: Record<string, unknown> & { type: string };
  dataset_id: string;
}

export interface Question {
  id: string;
  name: string;
  title: string;
  description: string | null;
  required: boolean;
  settings: Record<string, unknown> & { type: string };
  /** Scholia extension: false hides the question from annotators (a required question is always visible). */
  visible_for_annotators: boolean;
  dataset_id: string;
}

export interface VectorSettings {
  id: string;
  name: string;
  title: string;
  dimensions: number;
  dataset_id: string;
}

export interface MetadataProperty {
  id: string;
  name: string;
  title: string;
  settings: Record<string, unknown> & { type: 'terms' | 'integer' | 'float' };
  visible_for_annotators: boolean;
  dataset_id: string;
}

export type ResponseStatus = 'submitted' | 'discarded' | 'draft';

export interface RecordResponse {
  id: string;
  status: ResponseStatus;
  values: Record<string, { value: unknown }> | null;
  user_id?: string;
  record_id?: string;
  updated_at: string;
}

export interface DatasetRecord {
  id: string;
  fields: Record<string, unknown>;
  metadata?: Record<string, unknown> | null;
  external_id?: string | null;
  status: 'pending' | 'completed';
  responses?: RecordResponse[];
  suggestions?: unknown[];
  vectors?: Record<string, number[]>;
  dataset_id: string;
  inserted_at: string;
  updated_at: string;
}

export interface Job {
  id: string;
  status: 'queued' | 'started' | 'deferred' | 'scheduled' | 'finished' | 'failed' | 'stopped' | 'canceled';
  /** Why a failed job failed. */
  error?: string;
}
