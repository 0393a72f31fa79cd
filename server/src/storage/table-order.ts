import type { Tables } from './tables.js';

/** Every table, parents before children, so copying in this order satisfies every foreign key. */
export const TABLES_IN_KEY_ORDER = [
  'users',
  'workspaces',
  'workspace_users',
  'datasets',
  'dataset_users',
  'fields',
  'questions',
  'metadata_properties',
  'vector_settings',
  'records',
  'responses',
  'record_validations',
  'suggestions',
  'vectors',
  'jobs',
  'webhooks',
  'webhook_deliveries',
  'oauth_states',
  'instance_settings',
] as const satisfies readonly (keyof Tables)[];
