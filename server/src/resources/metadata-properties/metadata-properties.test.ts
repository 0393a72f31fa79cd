import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { createDataset, createPublishedDataset, insertRecord } from '../../../test/datasets-api-fixtures.js';
import { createPrincipals, uniqueName, validationError, type Principals } from '../../../test/fixtures.js';
import { PRINCIPALS, READ_MATRIX, WRITE_MATRIX, clientOf, type PrincipalName } from '../../../test/policy-matrix.js';
import { startTestServer, type TestServer } from '../../../test/test-server.js';
import { indexDefinition, metadataIndexExpression } from '../../../test/storage-probes.js';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { sqliteHandle } from '../../storage/open-database.js';
import { up as scopeMetadataIndexes } from '../../storage/migrations/202611270400_scope_metadata_indexes_to_their_dataset.js';
import { up as scopePostgresMetadataIndexes } from '../../storage/migrations/202611271300_scope_postgres_metadata_indexes_to_their_dataset.js';

let server: TestServer;
let api: TestApi;
let p: Principals;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  server = await startTestServer();
  api = new TestApi(server.url);
  p = await createPrincipals(api);
});
afterAll(() => server.close());

const createProperty = async (datasetId: string, body: Record<string, unknown>) => {
  const res = await p.owner.post(`/datasets/${datasetId}/metadata-properties`, { name: uniqueName('mp'), title: 'MP', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const indexExists = (propertyId: string) => indexDefinition(server.app.database, `mp_${propertyId.replace(/-/g, '')}`);

describe('POST /datasets/{id}/metadata-properties', () => {
  it('creates each type with exact settings, on a published dataset too, and an expression index', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ type: 'terms' }, { type: 'terms', values: null }],
      [{ type: 'terms', values: [true, false], visible_for_annotators: true }, { type: 'terms', values: [true, false] }],
      [{ type: 'terms', values: ['a', 1, 2.5] }, { type: 'terms', values: ['a', 1, 2.5] }],
      [{ type: 'integer' }, { type: 'integer', min: null, max: null }],
      [{ type: 'integer', min: -1, max: 10 }, { type: 'integer', min: -1, max: 10 }],
      [{ type: 'float', min: 0.5, max: null }, { type: 'float', min: 0.5, max: null }],
    ];
    const created = [];
    for (const [settings, expected] of cases) {
      const name = uniqueName('mp');
      const res = await p.owner.post(`/datasets/${dataset.id}/metadata-properties`, { name, title: 'MP', settings, id: null });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name,
        title: 'MP',
        settings: expected,
        visible_for_annotators: true,
        dataset_id: dataset.id,
        inserted_at: expect.stringMatching(TS),
        updated_at: expect.stringMatching(TS),
      });
      expect(await indexExists(res.body.id)).toContain(metadataIndexExpression(server.app.database, name));
      created.push(res.body);
    }
    expect((await p.owner.get(`/me/datasets/${dataset.id}/metadata-properties`)).body).toEqual({ items: created });
  });

  it('visible_for_annotators: false is kept', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    expect((await createProperty(dataset.id, { settings: { type: 'terms' }, visible_for_annotators: false })).visible_for_annotators).toBe(false);
  });

  it('409 on a duplicate name', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    await createProperty(dataset.id, { name: 'genre', settings: { type: 'terms' } });
    const res = await p.owner.post(`/datasets/${dataset.id}/metadata-properties`, { name: 'genre', title: 'G', settings: { type: 'integer' } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Metadata property with name \`genre\` already exists for dataset with id \`${dataset.id}\`` });
  });

  it('422 validation: min >= max, terms values length, bad type, integer bounds', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const post = (settings: Record<string, unknown>) =>
      p.owner.post(`/datasets/${dataset.id}/metadata-properties`, { name: 'x', title: 'X', settings });
    expect((await post({ type: 'integer', min: 5, max: 5 })).body).toEqual(
      validationError({ type: 'value_error', loc: ['body', 'settings', 'integer'], msg: "Value error, 'min' (5) must be lower than 'max' (5)" }),
    );
    expect((await post({ type: 'float', min: 2, max: 1.5 })).body).toEqual(
      validationError({ type: 'value_error', loc: ['body', 'settings', 'float'], msg: "Value error, 'min' (2.0) must be lower than 'max' (1.5)" }),
    );
    expect((await post({ type: 'terms', values: [] })).body).toEqual(
      validationError({ type: 'too_short', loc: ['body', 'settings', 'terms', 'values'], msg: 'List should have at least 1 item after validation, not 0' }),
    );
    expect((await post({ type: 'terms', values: Array.from({ length: 251 }, (_, i) => i) })).status).toBe(422);
    expect((await post({ type: 'integer', min: 1.5 })).body).toEqual(
      validationError({ type: 'int_type', loc: ['body', 'settings', 'integer', 'min'], msg: 'Input should be a valid integer' }),
    );
    expect((await post({ type: 'date' })).status).toBe(422);
  });

  it('404 for an unknown dataset', async () => {
    const res = await p.owner.post(`/datasets/${MISSING}/metadata-properties`, { name: 'x', title: 'X', settings: { type: 'terms' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Dataset with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const res = await clientOf(p, who).post(`/datasets/${dataset.id}/metadata-properties`, { name: 'x', title: 'X', settings: { type: 'terms' } });
    expect(res.status).toBe(WRITE_MATRIX(201)[who]);
  });
});

describe('GET /me/datasets/{id}/metadata-properties', () => {
  it('annotators only see properties visible to them', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const visible = await createProperty(dataset.id, { settings: { type: 'terms' } });
    const hidden = await createProperty(dataset.id, { settings: { type: 'terms' }, visible_for_annotators: false });
    const ids = async (who: PrincipalName) =>
      (await clientOf(p, who).get(`/me/datasets/${dataset.id}/metadata-properties`)).body.items.map((m: { id: string }) => m.id);
    expect(await ids('owner')).toEqual([visible.id, hidden.id]);
    expect(await ids('adminMember')).toEqual([visible.id, hidden.id]);
    expect(await ids('annotatorMember')).toEqual([visible.id]);
  });

  it('404 for an unknown dataset', async () => {
    expect((await p.owner.get(`/me/datasets/${MISSING}/metadata-properties`)).status).toBe(404);
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    expect((await clientOf(p, who).get(`/me/datasets/${dataset.id}/metadata-properties`)).status).toBe(READ_MATRIX[who]);
  });
});

describe('PATCH /metadata-properties/{id}', () => {
  it('updates title and visibility; omitting visible_for_annotators hides it', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const property = await createProperty(dataset.id, { settings: { type: 'integer', min: 0, max: 3 } });
    const res = await p.owner.patch(`/metadata-properties/${property.id}`, { title: 'New', visible_for_annotators: true, name: 'ignored' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...property, title: 'New', updated_at: res.body.updated_at });
    const omitted = await p.owner.patch(`/metadata-properties/${property.id}`, { title: 'Newer' });
    expect(omitted.body).toMatchObject({ title: 'Newer', visible_for_annotators: false });
  });

  it('422 when title or visible_for_annotators is null', async () => {
    const dataset = await createDataset(api, p.workspace.id);
    const property = await createProperty(dataset.id, { settings: { type: 'terms' } });
    expect((await p.owner.patch(`/metadata-properties/${property.id}`, { title: null })).status).toBe(422);
    expect((await p.owner.patch(`/metadata-properties/${property.id}`, { visible_for_annotators: null })).status).toBe(422);
  });

  it('404 for an unknown property', async () => {
    const res = await p.owner.patch(`/metadata-properties/${MISSING}`, { title: 'x', visible_for_annotators: true });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `MetadataProperty with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const property = await createProperty(dataset.id, { settings: { type: 'terms' } });
    const res = await clientOf(p, who).patch(`/metadata-properties/${property.id}`, { title: 'x', visible_for_annotators: true });
    expect(res.status).toBe(WRITE_MATRIX(200)[who]);
  });
});

describe.skipIf((process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres'))('the SQLite index of a metadata property', () => {
  it("holds its own dataset's records only, and a metadata search uses it", async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const name = uniqueName('mp');
    const property = await createProperty(dataset.id, { name, settings: { type: 'integer' } });
    const definition = await indexExists(property.id);
    expect(definition).toContain(`WHERE dataset_id = '${dataset.id}'`);
    expect(definition).not.toContain('(dataset_id,');
    for (let i = 0; i < 5; i += 1) await insertRecord(server.app.database.db, dataset.id, { [name]: i });

    // The statements the search prepares, to read the plan of the one that filters on metadata.
    const sqlite = sqliteHandle(server.app.database.db);
    const prepared: string[] = [];
    const prepare = sqlite.prepare;
    sqlite.prepare = ((text: string) => {
      prepared.push(text);
      return prepare.call(sqlite, text);
    }) as typeof sqlite.prepare;
    try {
      const filter = { type: 'range', scope: { entity: 'metadata', metadata_property: name }, ge: 1, le: 3 };
      const sort = [{ scope: { entity: 'metadata', metadata_property: name }, order: 'desc' }];
      const res = await p.owner.post(`/datasets/${dataset.id}/records/search`, { query: {}, filters: { and: [filter] }, sort });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.items.map((item: { record: { metadata: Record<string, number> } }) => item.record.metadata[name])).toEqual([3, 2, 1]);
    } finally {
      sqlite.prepare = prepare;
    }
    const statement = prepared.find((text) => text.includes('json_extract(r.metadata'));
    expect(statement).toBeDefined();
    const parameters = Array((statement!.match(/\?/g) ?? []).length).fill(null);
    const plan = JSON.stringify(sqlite.prepare(`EXPLAIN QUERY PLAN ${statement}`).all(parameters));
    expect(plan).toContain(`mp_${property.id.replace(/-/g, '')}`);
  });
});

describe.runIf((process.env.SCHOLIA_TEST_DATABASE_URL ?? '').startsWith('postgres'))('the PostgreSQL index of a metadata property', () => {
  /** The statements PostgreSQL is sent while `run` runs, with their parameters. */
  async function sentStatements(run: () => Promise<void>): Promise<{ text: string; values: unknown[] }[]> {
    const sent: { text: string; values: unknown[] }[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      if (typeof config === 'string') sent.push({ text: config, values: values ?? [] });
      else if (config?.text) sent.push({ text: config.text, values: config.values ?? values ?? [] });
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await run();
    } finally {
      pg.Client.prototype.query = query;
    }
    return sent;
  }

  it("holds its own dataset's records only, and a metadata search with the dataset id bound uses it", async () => {
    const [dataset, other] = [await createPublishedDataset(api, p.workspace.id), await createPublishedDataset(api, p.workspace.id)];
    const name = uniqueName('mp');
    const property = await createProperty(dataset.id, { name, settings: { type: 'integer' } });
    await createProperty(other.id, { name, settings: { type: 'integer' } });
    const definition = await indexExists(property.id);
    expect(definition).toContain(`WHERE ((dataset_id)::text = '${dataset.id}'::text)`);
    expect(definition).not.toContain('(dataset_id,');
    const { db } = server.app.database;
    for (let i = 0; i < 5; i += 1) await insertRecord(db, dataset.id, { [name]: i });
    for (let i = 0; i < 5; i += 1) await insertRecord(db, other.id, { [name]: i });

    const sent = await sentStatements(async () => {
      const filter = { type: 'range', scope: { entity: 'metadata', metadata_property: name }, ge: 1, le: 3 };
      const sort = [{ scope: { entity: 'metadata', metadata_property: name }, order: 'desc' }];
      const res = await p.owner.post(`/datasets/${dataset.id}/records/search`, { query: {}, filters: { and: [filter] }, sort });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.items.map((item: { record: { metadata: Record<string, number> } }) => item.record.metadata[name])).toEqual([3, 2, 1]);
    });
    const statement = sent.find(({ text }) => text.includes('NULLIF(r.metadata') && text.includes('r.dataset_id = $'));
    expect(statement, sent.map(({ text }) => text).join('\n')).toBeDefined();
    const plan = await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${statement!.text}`, statement!.values));
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain(`mp_${property.id.replace(/-/g, '')}`);
  });
});

describe('a metadata index built before over every dataset', () => {
  it("is rebuilt by the dialect's migration as an index of its own dataset's records", async () => {
    const { db, dialect } = server.app.database;
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const name = uniqueName('mp');
    const property = await createProperty(dataset.id, { name, settings: { type: 'terms' } });
    const index = `mp_${property.id.replace(/-/g, '')}`;
    const [value, migrate] =
      dialect === 'postgres'
        ? [`NULLIF(metadata -> '${name}', 'null'::jsonb)`, scopePostgresMetadataIndexes]
        : [`json_extract(metadata, '$."${name}"')`, scopeMetadataIndexes];
    await sql.raw(`DROP INDEX ${index}`).execute(db);
    await sql.raw(`CREATE INDEX ${index} ON records (dataset_id, ${value})`).execute(db);
    await migrate(db as never, { dialect });
    const definition = await indexExists(property.id);
    expect(definition).toContain(metadataIndexExpression(server.app.database, name));
    expect(definition).toMatch(new RegExp(`WHERE .*dataset_id.* = '${dataset.id}'`));
    expect(definition).not.toContain('(dataset_id,');
  });
});

describe('DELETE /metadata-properties/{id}', () => {
  it('deletes (also after publish), returns the property and drops its index', async () => {
    const dataset = await createPublishedDataset(api, p.workspace.id);
    const property = await createProperty(dataset.id, { settings: { type: 'terms' } });
    expect(await indexExists(property.id)).toBeDefined();
    const res = await p.owner.delete(`/metadata-properties/${property.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(property);
    expect(await indexExists(property.id)).toBeUndefined();
    expect((await p.owner.get(`/me/datasets/${dataset.id}/metadata-properties`)).body).toEqual({ items: [] });
  });

  it('404 for an unknown property', async () => {
    expect((await p.owner.delete(`/metadata-properties/${MISSING}`)).body).toEqual({
      detail: `MetadataProperty with id \`${MISSING}\` not found`,
    });
  });

  it.each(PRINCIPALS)('policy: %s', async (who) => {
    const dataset = await createDataset(api, p.workspace.id);
    const property = await createProperty(dataset.id, { settings: { type: 'terms' } });
    expect((await clientOf(p, who).delete(`/metadata-properties/${property.id}`)).status).toBe(WRITE_MATRIX(200)[who]);
  });
});

describe('GET /metadata-properties/{id}/metrics', () => {
  let dataset: { id: string };
  let terms: { id: string };
  let hidden: { id: string };
  let integer: { id: string };
  let float: { id: string };
  beforeAll(async () => {
    dataset = await createPublishedDataset(api, p.workspace.id);
    terms = await createProperty(dataset.id, { name: 'genre', settings: { type: 'terms' } });
    hidden = await createProperty(dataset.id, { name: 'secret', settings: { type: 'terms' }, visible_for_annotators: false });
    integer = await createProperty(dataset.id, { name: 'year', settings: { type: 'integer' } });
    float = await createProperty(dataset.id, { name: 'score', settings: { type: 'float' } });
    const { db } = server.app.database;
    await insertRecord(db, dataset.id, { genre: 'b', year: 2001, score: 1.234567891 });
    await insertRecord(db, dataset.id, { genre: ['a', 'b', 'b'], year: 1999, score: 2.5 });
    await insertRecord(db, dataset.id, { genre: 'a', year: null, score: 0.123456 });
    await insertRecord(db, dataset.id, { genre: true, secret: 'x' });
    await insertRecord(db, dataset.id, { genre: null });
    await insertRecord(db, dataset.id, null);
  });

  it('terms: counts per value, list elements counted once per record, most frequent first', async () => {
    const res = await p.owner.get(`/metadata-properties/${terms.id}/metrics`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: 'terms',
      total: 5,
      values: [
        { term: 'a', count: 2 },
        { term: 'b', count: 2 },
        { term: true, count: 1 },
      ],
    });
  });

  it('integer and float: min and max, floats rounded to 5 decimals', async () => {
    expect((await p.owner.get(`/metadata-properties/${integer.id}/metrics`)).body).toEqual({ type: 'integer', min: 1999, max: 2001 });
    expect((await p.owner.get(`/metadata-properties/${float.id}/metrics`)).body).toEqual({ type: 'float', min: 0.12346, max: 2.5 });
  });

  it('no values: empty terms, null bounds', async () => {
    const other = await createPublishedDataset(api, p.workspace.id);
    const t = await createProperty(other.id, { settings: { type: 'terms' } });
    const f = await createProperty(other.id, { settings: { type: 'float' } });
    expect((await p.owner.get(`/metadata-properties/${t.id}/metrics`)).body).toEqual({ type: 'terms', total: 0, values: [] });
    expect((await p.owner.get(`/metadata-properties/${f.id}/metrics`)).body).toEqual({ type: 'float', min: null, max: null });
  });

  it('404 for an unknown property', async () => {
    const res = await p.owner.get(`/metadata-properties/${MISSING}/metrics`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `MetadataProperty with id \`${MISSING}\` not found` });
  });

  it.each(PRINCIPALS)('policy (visible property): %s', async (who) => {
    expect((await clientOf(p, who).get(`/metadata-properties/${terms.id}/metrics`)).status).toBe(READ_MATRIX[who]);
  });

  it.each(PRINCIPALS)('policy (hidden property): %s', async (who) => {
    const expected = { ...READ_MATRIX, annotatorMember: 403 }[who];
    expect((await clientOf(p, who).get(`/metadata-properties/${hidden.id}/metrics`)).status).toBe(expected);
  });
});
