import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import type { FieldRow, MetadataPropertyRow, QuestionRow, Tables, VectorSettingsRow } from '../tables.js';
import { preparedQuery } from '../prepared-query.js';

type Db = Kysely<Tables>;

/** Read side of a dataset's settings entities, each in creation order (contract §0). */
export const listFields = (db: Db, datasetId: string): Promise<FieldRow[]> =>
  db.selectFrom('fields').selectAll().where('dataset_id', '=', datasetId).orderBy('inserted_at').execute();

const questionsOf = preparedQuery((db, datasetId: string) =>
  db.selectFrom('questions').selectAll().where('dataset_id', '=', datasetId).orderBy('inserted_at'),
);
export const listQuestions = (db: Db, datasetId: string): Promise<QuestionRow[]> => questionsOf.all(db, datasetId);

export const listMetadataProperties = (db: Db, datasetId: string): Promise<MetadataPropertyRow[]> =>
  db.selectFrom('metadata_properties').selectAll().where('dataset_id', '=', datasetId).orderBy('inserted_at').execute();

export const listVectorSettings = (db: Db, datasetId: string): Promise<VectorSettingsRow[]> =>
  db.selectFrom('vector_settings').selectAll().where('dataset_id', '=', datasetId).orderBy('inserted_at').execute();

// ---- write side and lookups (fields, questions, metadata properties, vector settings) ----

export const findFieldById = (db: Db, id: string): Promise<FieldRow | undefined> =>
  db.selectFrom('fields').selectAll().where('id', '=', id).executeTakeFirst();

export const findFieldByName = (db: Db, datasetId: string, name: string): Promise<FieldRow | undefined> =>
  db.selectFrom('fields').selectAll().where('dataset_id', '=', datasetId).where('name', '=', name).executeTakeFirst();

export async function insertField(db: Db, row: FieldRow): Promise<FieldRow> {
  await db.insertInto('fields').values(row).execute();
  return row;
}

export async function updateField(db: Db, id: string, changes: Partial<Pick<FieldRow, 'title' | 'settings' | 'updated_at'>>) {
  await db.updateTable('fields').set(changes).where('id', '=', id).execute();
}

export async function deleteField(db: Db, id: string) {
  await db.deleteFrom('fields').where('id', '=', id).execute();
}

export async function countFields(db: Db, datasetId: string): Promise<number> {
  const row = await db
    .selectFrom('fields')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('dataset_id', '=', datasetId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const findQuestionById = (db: Db, id: string): Promise<QuestionRow | undefined> =>
  db.selectFrom('questions').selectAll().where('id', '=', id).executeTakeFirst();

export const findQuestionByName = (db: Db, datasetId: string, name: string): Promise<QuestionRow | undefined> =>
  db.selectFrom('questions').selectAll().where('dataset_id', '=', datasetId).where('name', '=', name).executeTakeFirst();

export async function insertQuestion(db: Db, row: QuestionRow): Promise<QuestionRow> {
  await db.insertInto('questions').values(row).execute();
  return row;
}

export async function updateQuestion(
  db: Db,
  id: string,
  changes: Partial<Pick<QuestionRow, 'title' | 'description' | 'settings' | 'visible_for_annotators' | 'updated_at'>>,
) {
  await db.updateTable('questions').set(changes).where('id', '=', id).execute();
}

export async function deleteQuestion(db: Db, id: string) {
  await db.deleteFrom('questions').where('id', '=', id).execute();
}

export async function countRequiredQuestions(db: Db, datasetId: string): Promise<number> {
  const row = await db
    .selectFrom('questions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('dataset_id', '=', datasetId)
    .where('required', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const findMetadataPropertyById = (db: Db, id: string): Promise<MetadataPropertyRow | undefined> =>
  db.selectFrom('metadata_properties').selectAll().where('id', '=', id).executeTakeFirst();

export const findMetadataPropertyByName = (db: Db, datasetId: string, name: string): Promise<MetadataPropertyRow | undefined> =>
  db.selectFrom('metadata_properties').selectAll().where('dataset_id', '=', datasetId).where('name', '=', name).executeTakeFirst();

export async function insertMetadataProperty(db: Db, row: MetadataPropertyRow): Promise<MetadataPropertyRow> {
  await db.insertInto('metadata_properties').values(row).execute();
  return row;
}

export async function updateMetadataProperty(
  db: Db,
  id: string,
  changes: Partial<Pick<MetadataPropertyRow, 'title' | 'visible_for_annotators' | 'updated_at'>>,
) {
  await db.updateTable('metadata_properties').set(changes).where('id', '=', id).execute();
}

export async function deleteMetadataProperty(db: Db, id: string) {
  await db.deleteFrom('metadata_properties').where('id', '=', id).execute();
}

export const findVectorSettingsById = (db: Db, id: string): Promise<VectorSettingsRow | undefined> =>
  db.selectFrom('vector_settings').selectAll().where('id', '=', id).executeTakeFirst();

export const findVectorSettingsByName = (db: Db, datasetId: string, name: string): Promise<VectorSettingsRow | undefined> =>
  db.selectFrom('vector_settings').selectAll().where('dataset_id', '=', datasetId).where('name', '=', name).executeTakeFirst();

export async function countVectorSettings(db: Db, datasetId: string): Promise<number> {
  const row = await db
    .selectFrom('vector_settings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('dataset_id', '=', datasetId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertVectorSettings(db: Db, row: VectorSettingsRow): Promise<VectorSettingsRow> {
  await db.insertInto('vector_settings').values(row).execute();
  return row;
}

export async function updateVectorSettings(db: Db, id: string, changes: Partial<Pick<VectorSettingsRow, 'title' | 'updated_at'>>) {
  await db.updateTable('vector_settings').set(changes).where('id', '=', id).execute();
}

export async function deleteVectorSettings(db: Db, id: string) {
  await db.deleteFrom('vector_settings').where('id', '=', id).execute();
}

// ---- metadata values over records ----

/**
 * The SQLite JSON path of an object key (a metadata key, a question name): the key as a JSON
 * string, so `"`, `\\` and control characters in a name are escaped (SQLite decodes escapes when
 * it compares labels). Metadata search must use exactly `json_extract(metadata, <this literal>)`,
 * the expression of the per-property index, for the index to apply.
 */
export function jsonKeyPath(name: string): string {
  return `$.${JSON.stringify(name)}`;
}

/** Name of the expression index of a metadata property. */
export const metadataIndexName = (propertyId: string) => `mp_${propertyId.replace(/-/g, '')}`;

type IndexedProperty = Pick<MetadataPropertyRow, 'id' | 'name' | 'dataset_id'>;

/**
 * SQLite: index `records(json_extract(metadata, '$."<name>"')) WHERE dataset_id = '<its dataset>'`
 * so metadata filters and sorts stay fast on large datasets. Partial on the property's dataset:
 * an index over every record of every dataset cost each insert a random B-tree position in it,
 * and made ingestion slow down as the table grew (search.repository.ts names the dataset in its
 * statements for SQLite to use it). PostgreSQL: index `records(NULLIF(metadata -> '<name>',
 * 'null')) WHERE dataset_id = '<its dataset>'`, the jsonb expression search.repository.ts filters
 * and sorts on; partial for the same reason (an insert into one dataset would otherwise add an
 * entry to every metadata index of every dataset). PostgreSQL plans a search with the dataset id
 * it was sent, so a bound id uses the index.
 */
export async function createMetadataIndex(db: Db, dialect: DialectName, property: IndexedProperty) {
  if (dialect === 'postgres') {
    await sql.raw(postgresMetadataIndexSql(property)).execute(db);
    return;
  }
  await sql.raw(sqliteMetadataIndexSql(property)).execute(db);
}

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

function sqliteMetadataIndexSql(property: IndexedProperty): string {
  return `CREATE INDEX IF NOT EXISTS ${metadataIndexName(property.id)} ON records(json_extract(metadata, ${quoted(jsonKeyPath(property.name))})) WHERE dataset_id = ${quoted(property.dataset_id)}`;
}

function postgresMetadataIndexSql(property: IndexedProperty): string {
  return `CREATE INDEX IF NOT EXISTS ${metadataIndexName(property.id)} ON records (NULLIF(metadata -> ${quoted(property.name)}, 'null'::jsonb)) WHERE dataset_id = ${quoted(property.dataset_id)}`;
}

export async function dropMetadataIndex(db: Db, _dialect: DialectName, propertyId: string) {
  await sql.raw(`DROP INDEX IF EXISTS ${metadataIndexName(propertyId)}`).execute(db);
}

/** Distinct JSON texts of one metadata key over a dataset's records, with their record counts. */
export async function countMetadataValues(db: Db, dialect: DialectName, datasetId: string, name: string) {
  const value =
    dialect === 'sqlite' ? sql<string | null>`records.metadata -> ${jsonKeyPath(name)}` : sql<string | null>`(records.metadata -> ${name})::text`;
  const rows = await db
    .selectFrom('records')
    .select([value.as('value'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('dataset_id', '=', datasetId)
    .groupBy(sql`1`)
    .execute();
  return rows.filter((r) => r.value !== null).map((r) => ({ json: r.value as string, count: Number(r.n) }));
}

/** Min and max of the numeric values of one metadata key over a dataset's records. */
export async function metadataNumericRange(db: Db, dialect: DialectName, datasetId: string, name: string) {
  const [numeric, isNumber] =
    dialect === 'sqlite'
      ? [
          sql`json_extract(records.metadata, ${jsonKeyPath(name)})`,
          sql<boolean>`json_type(records.metadata, ${jsonKeyPath(name)}) IN ('integer', 'real')`,
        ]
      : [sql`(records.metadata ->> ${name})::double precision`, sql<boolean>`jsonb_typeof(records.metadata -> ${name}) = 'number'`];
  const row = await db
    .selectFrom('records')
    .select([sql<number | null>`MIN(${numeric})`.as('min'), sql<number | null>`MAX(${numeric})`.as('max')])
    .where('dataset_id', '=', datasetId)
    .where(isNumber)
    .executeTakeFirst();
  return { min: row?.min === null || row?.min === undefined ? null : Number(row.min), max: row?.max === null || row?.max === undefined ? null : Number(row.max) };
}
