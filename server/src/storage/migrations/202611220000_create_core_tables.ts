import type { Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/** Users, workspaces, datasets and their settings entities, records and answers, jobs. */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const json = dialect === 'postgres' ? 'jsonb' : 'text';
  const ts = 'varchar(32)';

  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text')
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('api_key', 'text', (c) => c.notNull().unique())
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspace_users')
    .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_users_pk', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('workspace_users_user_idx').on('workspace_users').columns(['user_id']).execute();

  await db.schema
    .createTable('datasets')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('guidelines', 'text')
    .addColumn('allow_extra_metadata', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('distribution', json, (c) => c.notNull())
    .addColumn('metadata', json)
    .addColumn('workspace_id', 'varchar(36)', (c) => c.notNull().references('workspaces.id'))
    .addColumn('last_activity_at', ts, (c) => c.notNull())
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('datasets_workspace_name_uq', ['workspace_id', 'name'])
    .execute();

  await db.schema
    .createTable('dataset_users')
    .addColumn('dataset_id', 'varchar(36)', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('dataset_users_pk', ['dataset_id', 'user_id'])
    .execute();

  for (const table of ['fields', 'questions', 'metadata_properties', 'vector_settings'] as const) {
    let builder = db.schema
      .createTable(table)
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('dataset_id', 'varchar(36)', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull());
    if (table === 'fields' || table === 'questions') builder = builder.addColumn('required', 'integer', (c) => c.notNull());
    if (table === 'questions') builder = builder.addColumn('description', 'text');
    if (table !== 'vector_settings') builder = builder.addColumn('settings', json, (c) => c.notNull());
    if (table === 'metadata_properties') builder = builder.addColumn('visible_for_annotators', 'integer', (c) => c.notNull());
    if (table === 'vector_settings') builder = builder.addColumn('dimensions', 'integer', (c) => c.notNull());
    await builder
      .addColumn('inserted_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .addUniqueConstraint(`${table}_dataset_name_uq`, ['dataset_id', 'name'])
      .execute();
  }

  await db.schema
    .createTable('records')
    .addColumn('rid', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('dataset_id', 'varchar(36)', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
    .addColumn('external_id', 'text')
    .addColumn('fields', json, (c) => c.notNull())
    .addColumn('metadata', json)
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('submitted_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('records_dataset_external_id_uq', ['dataset_id', 'external_id'])
    .execute();
  await db.schema.createIndex('records_dataset_rid_idx').on('records').columns(['dataset_id', 'rid']).execute();
  await db.schema.createIndex('records_dataset_status_idx').on('records').columns(['dataset_id', 'status']).execute();

  await db.schema
    .createTable('responses')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('record_id', 'varchar(36)', (c) => c.notNull().references('records.id').onDelete('cascade'))
    .addColumn('dataset_id', 'varchar(36)', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('values', json)
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('responses_record_user_uq', ['record_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('responses_dataset_user_status_idx')
    .on('responses')
    .columns(['dataset_id', 'user_id', 'status'])
    .execute();

  await db.schema
    .createTable('suggestions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('record_id', 'varchar(36)', (c) => c.notNull().references('records.id').onDelete('cascade'))
    .addColumn('dataset_id', 'varchar(36)', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
    .addColumn('question_id', 'varchar(36)', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('type', 'varchar(16)')
    .addColumn('value', json, (c) => c.notNull())
    .addColumn('agent', 'text')
    .addColumn('score', json)
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('suggestions_record_question_uq', ['record_id', 'question_id'])
    .execute();
  await db.schema.createIndex('suggestions_dataset_question_idx').on('suggestions').columns(['dataset_id', 'question_id']).execute();

  await db.schema
    .createTable('vectors')
    .addColumn('record_id', 'varchar(36)', (c) => c.notNull().references('records.id').onDelete('cascade'))
    .addColumn('dataset_id', 'varchar(36)', (c) => c.notNull().references('datasets.id').onDelete('cascade'))
    .addColumn('vector_settings_id', 'varchar(36)', (c) => c.notNull().references('vector_settings.id').onDelete('cascade'))
    .addColumn('value', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('vectors_pk', ['record_id', 'vector_settings_id'])
    .execute();
  await db.schema.createIndex('vectors_settings_idx').on('vectors').columns(['vector_settings_id']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('payload', json, (c) => c.notNull())
    .addColumn('result', json)
    .addColumn('error', 'text')
    .addColumn('worker_id', 'text')
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_status_idx').on('jobs').columns(['status', 'inserted_at']).execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('events', json, (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_states')
    .addColumn('state', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('provider', 'varchar(64)', (c) => c.notNull())
    .addColumn('inserted_at', ts, (c) => c.notNull())
    .execute();


}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'oauth_states', 'webhooks', 'jobs', 'vectors', 'suggestions', 'responses', 'records', 'vector_settings',
    'metadata_properties', 'questions', 'fields', 'dataset_users', 'datasets', 'workspace_users', 'workspaces', 'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
