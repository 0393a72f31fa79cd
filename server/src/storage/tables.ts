import type { Generated } from 'kysely';
import type { TextIndexOp } from './search/text-index-queue.js';

/**
 * Row types of every table. Booleans are stored as 0/1 integers and JSON as text (jsonb on
 * PostgreSQL) so one set of migrations serves both dialects; repositories convert.
 */
export interface Tables {
  users: UserRow;
  workspaces: WorkspaceRow;
  workspace_users: WorkspaceUserRow;
  datasets: DatasetRow;
  dataset_users: DatasetUserRow;
  fields: FieldRow;
  questions: QuestionRow;
  metadata_properties: MetadataPropertyRow;
  vector_settings: VectorSettingsRow;
  records: RecordRow;
  responses: ResponseRow;
  record_validations: RecordValidationRow;
  suggestions: SuggestionRow;
  vectors: VectorRow;
  dataset_record_counts: DatasetRecordCountRow;
  jobs: JobRow;
  webhooks: WebhookRow;
  webhook_deliveries: WebhookDeliveryRow;
  oauth_states: OAuthStateRow;
  instance_settings: InstanceSettingRow;
  text_index_queue: TextIndexQueueRow;
  /** PostgreSQL only (migration 202611280710). */
  sign_in_limits: SignInLimitRow;
}

export type Json = string; // serialised JSON (parsed by pg for jsonb columns: see json.ts)

export interface UserRow {
  id: string;
  first_name: string;
  last_name: string | null;
  username: string;
  role: 'owner' | 'admin' | 'annotator';
  password_hash: string;
  api_key: string;
  /** Bumped by a password change or key rotation: tokens issued under an older version are refused. */
  token_version: number;
  /** The sign-in provider this account is linked to (e.g. `huggingface`), or null. */
  identity_provider: string | null;
  /** The provider's stable subject (`sub`) for this account; set with `identity_provider`. */
  identity_subject: string | null;
  inserted_at: string;
  updated_at: string;
}

export interface WorkspaceRow {
  id: string;
  name: string;
  inserted_at: string;
  updated_at: string;
}

export interface WorkspaceUserRow {
  workspace_id: string;
  user_id: string;
  inserted_at: string;
}

export interface DatasetRow {
  id: string;
  name: string;
  guidelines: string | null;
  allow_extra_metadata: number;
  status: 'draft' | 'ready';
  /** `{strategy, min_submitted}` */
  distribution: Json;
  metadata: Json | null;
  workspace_id: string;
  last_activity_at: string;
  inserted_at: string;
  updated_at: string;
}

/** Users who ever responded in a dataset, in first-response order (contract §6.1). */
export interface DatasetUserRow {
  dataset_id: string;
  user_id: string;
  inserted_at: string;
}

export interface FieldRow {
  id: string;
  dataset_id: string;
  name: string;
  title: string;
  required: number;
  settings: Json;
  inserted_at: string;
  updated_at: string;
}

export interface QuestionRow {
  id: string;
  dataset_id: string;
  name: string;
  title: string;
  description: string | null;
  required: number;
  settings: Json;
  /** Scholia extension (migration 202611240300): 0 hides the question from annotators. */
  visible_for_annotators: number;
  inserted_at: string;
  updated_at: string;
}

export interface MetadataPropertyRow {
  id: string;
  dataset_id: string;
  name: string;
  title: string;
  settings: Json;
  visible_for_annotators: number;
  inserted_at: string;
  updated_at: string;
}

export interface VectorSettingsRow {
  id: string;
  dataset_id: string;
  name: string;
  title: string;
  dimensions: number;
  inserted_at: string;
  updated_at: string;
}

export interface RecordRow {
  /** Integer key: insertion order, FTS rowid and keyset paging. */
  rid: Generated<number>;
  id: string;
  dataset_id: string;
  external_id: string | null;
  fields: Json;
  metadata: Json | null;
  status: 'pending' | 'completed';
  /** Maintained count of submitted responses; status = submitted_count >= min_submitted. */
  submitted_count: number;
  inserted_at: string;
  updated_at: string;
}

export interface ResponseRow {
  id: string;
  record_id: string;
  dataset_id: string;
  user_id: string;
  status: 'draft' | 'submitted' | 'discarded';
  values: Json | null;
  inserted_at: string;
  updated_at: string;
}

/** A record's final answer (Scholia extension); the record counts as validated while the row exists. */
export interface RecordValidationRow {
  record_id: string;
  dataset_id: string;
  /** `{question_name: {value}}`, checked like a submitted response's values */
  values: Json;
  /** who validated; null once that user is deleted */
  user_id: string | null;
  inserted_at: string;
  updated_at: string;
}

export interface SuggestionRow {
  id: string;
  record_id: string;
  dataset_id: string;
  question_id: string;
  type: 'model' | 'human' | null;
  value: Json;
  agent: string | null;
  score: Json | null;
  inserted_at: string;
  updated_at: string;
}

/** Records per dataset and status, kept by triggers (SQLite only: migration 202611240100). */
export interface DatasetRecordCountRow {
  dataset_id: string;
  pending: number;
  completed: number;
}

export interface VectorRow {
  record_id: string;
  dataset_id: string;
  vector_settings_id: string;
  /** little-endian float64 array (storage/vector-codec.ts) */
  value: Uint8Array;
  inserted_at: string;
  updated_at: string;
}

export interface JobRow {
  id: string;
  type: string;
  status: 'queued' | 'started' | 'deferred' | 'scheduled' | 'finished' | 'failed' | 'stopped' | 'canceled';
  payload: Json;
  result: Json | null;
  error: string | null;
  /** Worker that claimed the job (only one worker runs a job). */
  worker_id: string | null;
  inserted_at: string;
  updated_at: string;
}

export interface WebhookRow {
  id: string;
  url: string;
  secret: string;
  events: Json;
  enabled: number;
  description: string | null;
  /** The process sending this webhook's one delivery in flight, or null (webhooks/webhook-deliverer.ts). */
  sending_by: string | null;
  /** When `sending_by` claimed its turn. */
  sending_since: string | null;
  /** When the webhook last had a turn: the one that waited longest goes next. */
  served_at: string | null;
  inserted_at: string;
  updated_at: string;
}

/** One event for one webhook: the outbox row and its delivery log (webhooks/webhook-deliverer.ts). */
export interface WebhookDeliveryRow {
  /** the Standard Webhooks message id (`webhook-id` header), the same on every attempt */
  id: string;
  webhook_id: string;
  event: string;
  /** the exact JSON body that is signed and sent */
  body: string;
  status: 'pending' | 'sending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  claimed_by: string | null;
  last_status_code: number | null;
  last_error: string | null;
  inserted_at: string;
  updated_at: string;
}

export interface OAuthStateRow {
  state: string;
  provider: string;
  inserted_at: string;
}

/** A value shared by every process of the installation (migration 202611231000). */
export interface InstanceSettingRow {
  name: string;
  value: string;
  inserted_at: string;
}

/** A write waiting for the text index (storage/search/text-index-queue.ts). */
export interface TextIndexQueueRow {
  seq: Generated<number>;
  dataset_id: string;
  /** null for a whole-dataset change */
  rid: number | null;
  op: TextIndexOp;
}

/** One sign-in limit's state, shared by every process on PostgreSQL (auth/shared-sign-in-limits.ts). Times in epoch ms. */
export interface SignInLimitRow {
  /** what is counted: `address:` or `username:` and a hash of it */
  key: string;
  count: number;
  /** a username's next attempt is refused before this */
  not_before: number;
  /** the row may be deleted from this time on */
  expires_at: number;
}
