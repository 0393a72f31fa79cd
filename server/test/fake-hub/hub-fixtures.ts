import type { Kysely } from 'kysely';
import { newApiKey, newId } from '../../src/lib/ids.js';
import { nowTimestamp } from '../../src/lib/time.js';
import { toJson } from '../../src/storage/json.js';
import type { Tables } from '../../src/storage/tables.js';
import { insertUser } from '../../src/storage/repositories/users.repository.js';
import { dialectOf } from '../../src/storage/dialect.js';
import { createTextIndex } from '../../src/storage/search/text-index.js';

/**
 * Direct-storage fixtures for Hub tests: a workspace and a published dataset with the fields,
 * questions and metadata properties a Hub mapping targets (what the import wizard creates).
 */
export interface HubDatasetSpec {
  fields?: { name: string; type: 'text' | 'image' | 'chat' | 'custom'; required?: boolean }[];
  questions?: { name: string; settings: Record<string, unknown>; required?: boolean }[];
  metadata?: { name: string; settings: Record<string, unknown> }[];
  vectors?: { name: string; dimensions: number }[];
  status?: 'draft' | 'ready';
}

export interface HubDataset {
  id: string;
  workspaceId: string;
  questionIds: Record<string, string>;
  vectorIds: Record<string, string>;
}

export async function createHubDataset(db: Kysely<Tables>, spec: HubDatasetSpec): Promise<HubDataset> {
  const now = () => nowTimestamp();
  const workspaceId = newId();
  await db.insertInto('workspaces').values({ id: workspaceId, name: `ws-${workspaceId.slice(-12)}`, inserted_at: now(), updated_at: now() }).execute();
  const id = newId();
  await db
    .insertInto('datasets')
    .values({
      id, name: `hub-${id.slice(-12)}`, guidelines: 'Label it well', allow_extra_metadata: 1, status: spec.status ?? 'ready',
      distribution: toJson({ strategy: 'overlap', min_submitted: 1 }), metadata: null, workspace_id: workspaceId,
      last_activity_at: now(), inserted_at: now(), updated_at: now(),
    })
    .execute();
  for (const f of spec.fields ?? []) {
    await db
      .insertInto('fields')
      .values({ id: newId(), dataset_id: id, name: f.name, title: f.name, required: f.required === false ? 0 : 1, settings: toJson({ type: f.type, use_markdown: false }), inserted_at: now(), updated_at: now() })
      .execute();
  }
  // What publishing does: the dataset's full-text index over its fields.
  if ((spec.status ?? 'ready') === 'ready') {
    await createTextIndex(db, dialectOf(db), id, (spec.fields ?? []).map((f) => ({ name: f.name, settings: { type: f.type } })));
  }
  const questionIds: Record<string, string> = {};
  for (const q of spec.questions ?? []) {
    questionIds[q.name] = newId();
    await db
      .insertInto('questions')
      .values({ id: questionIds[q.name], dataset_id: id, name: q.name, title: q.name, description: null, required: q.required ? 1 : 0, settings: toJson(q.settings), visible_for_annotators: 1, inserted_at: now(), updated_at: now() })
      .execute();
  }
  for (const m of spec.metadata ?? []) {
    await db
      .insertInto('metadata_properties')
      .values({ id: newId(), dataset_id: id, name: m.name, title: m.name, settings: toJson(m.settings), visible_for_annotators: 1, inserted_at: now(), updated_at: now() })
      .execute();
  }
  const vectorIds: Record<string, string> = {};
  for (const v of spec.vectors ?? []) {
    vectorIds[v.name] = newId();
    await db.insertInto('vector_settings').values({ id: vectorIds[v.name], dataset_id: id, name: v.name, title: v.name, dimensions: v.dimensions, inserted_at: now(), updated_at: now() }).execute();
  }
  return { id, workspaceId, questionIds, vectorIds };
}

/** A user with a role (and membership of `workspaceId`), for policy cases. */
export async function createUser(db: Kysely<Tables>, role: 'admin' | 'annotator', workspaceId?: string): Promise<{ id: string; apiKey: string }> {
  const id = newId();
  const apiKey = newApiKey();
  await insertUser(db, { id, first_name: role, last_name: null, username: `${role}-${id.slice(-12)}`, role, password_hash: 'x', api_key: apiKey, inserted_at: nowTimestamp(), updated_at: nowTimestamp() });
  if (workspaceId) await db.insertInto('workspace_users').values({ workspace_id: workspaceId, user_id: id, inserted_at: nowTimestamp() }).execute();
  return { id, apiKey };
}

export const labelSettings = (values: string[], type: 'label_selection' | 'multi_label_selection' = 'label_selection') => ({
  type,
  options: values.map((value) => ({ value, text: value, description: null })),
  visible_options: values.length > 3 ? values.length : null,
  ...(type === 'multi_label_selection' ? { options_order: 'natural' } : {}),
});
