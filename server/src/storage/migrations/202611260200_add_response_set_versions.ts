import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './context.js';

/**
 * `response_set_versions`: a number per dataset that changes whenever one of its responses is
 * added, removed, or has its status or values changed, bumped by triggers on `responses` as
 * `record_set_versions` is on records. The agreement figures keep the answers they read in memory
 * (resources/agreement/answer-cache.ts) and know from it when they are stale, whichever write
 * path changed them: a response write, a bulk record write, or a cascade from a deleted record or user.
 *
 * PostgreSQL gets the commit-time triggers of 202611240500, for the same reason (no lock on the
 * version row from a transaction's first response write until its commit).
 */
export async function up(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('response_set_versions')
    .addColumn('dataset_id', 'varchar(36)', (c) => c.primaryKey().references('datasets.id').onDelete('cascade'))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  if (dialect === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
  await sql`INSERT INTO response_set_versions (dataset_id, version) SELECT DISTINCT dataset_id, 1 FROM responses`.execute(db);
}

async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const bump = `INSERT INTO response_set_versions (dataset_id, version) VALUES (NEW.dataset_id, 1)
                  ON CONFLICT (dataset_id) DO UPDATE SET version = version + 1;`;
  await sql.raw(`CREATE TRIGGER responses_version_insert AFTER INSERT ON responses BEGIN ${bump} END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER responses_version_update AFTER UPDATE ON responses
          WHEN OLD.status IS NOT NEW.status OR OLD."values" IS NOT NEW."values" OR OLD.record_id IS NOT NEW.record_id OR OLD.user_id IS NOT NEW.user_id
          BEGIN ${bump} END`)
    .execute(db);
  // A delete only updates: when a whole dataset goes, its version row may already be gone.
  await sql
    .raw(`CREATE TRIGGER responses_version_delete AFTER DELETE ON responses BEGIN
            UPDATE response_set_versions SET version = version + 1 WHERE dataset_id = OLD.dataset_id;
          END`)
    .execute(db);
}

async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION bump_response_set_version() RETURNS trigger AS $$
       DECLARE
         dataset varchar(36);
         marker text;
       BEGIN
         IF TG_OP = 'DELETE' THEN dataset := OLD.dataset_id; ELSE dataset := NEW.dataset_id; END IF;
         marker := 'scholia.response_set_' || replace(dataset, '-', '');
         IF current_setting(marker, true) = 'bumped' THEN RETURN NULL; END IF;
         PERFORM set_config(marker, 'bumped', true);
         -- A dataset deleted in this transaction has no version to keep.
         INSERT INTO response_set_versions (dataset_id, version)
           SELECT dataset, 1 WHERE EXISTS (SELECT 1 FROM datasets WHERE id = dataset)
           ON CONFLICT (dataset_id) DO UPDATE SET version = response_set_versions.version + 1;
         RETURN NULL;
       END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  const deferred = (name: string, event: string, when = '') =>
    sql
      .raw(
        `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON responses DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW ${when} EXECUTE FUNCTION bump_response_set_version()`,
      )
      .execute(db);
  await deferred('responses_version_insert', 'INSERT');
  await deferred('responses_version_delete', 'DELETE');
  await deferred(
    'responses_version_update',
    'UPDATE',
    'WHEN ((OLD.status, OLD."values", OLD.record_id, OLD.user_id) IS DISTINCT FROM (NEW.status, NEW."values", NEW.record_id, NEW.user_id))',
  );
}

export async function down(db: Kysely<unknown>, { dialect }: MigrationContext): Promise<void> {
  const on = dialect === 'postgres' ? ' ON responses' : '';
  for (const name of ['insert', 'update', 'delete']) await sql.raw(`DROP TRIGGER IF EXISTS responses_version_${name}${on}`).execute(db);
  if (dialect === 'postgres') await sql.raw('DROP FUNCTION IF EXISTS bump_response_set_version()').execute(db);
  await db.schema.dropTable('response_set_versions').ifExists().execute();
}
