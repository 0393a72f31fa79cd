import type { CompiledQuery, Compilable, Kysely } from 'kysely';
import { dialectOf, type DialectName } from './dialect.js';
import type { Tables } from './tables.js';

/**
 * A fixed-shape query built and compiled once per dialect, then run with new parameter values.
 * Building and compiling a Kysely query costs tens of µs, more than SQLite takes to run a point
 * lookup by primary key; the submit path runs several per request (bench/scale.ts profile).
 *
 * Only for queries whose SQL text does not depend on the values (no `in` lists, no optional
 * clauses): `build` is called once with placeholder values, and each placeholder's position in
 * the compiled parameters is where the real value goes. Works on transactions too (the compiled
 * query runs on whatever connection `db` provides).
 */
export function preparedQuery<Params extends unknown[], Row>(build: (db: Kysely<Tables>, ...params: Params) => Compilable<Row>) {
  const compiled = new Map<DialectName, { query: CompiledQuery<Row>; slots: (number | undefined)[] }>();

  function prepare(db: Kysely<Tables>, arity: number) {
    const dialect = dialectOf(db);
    let entry = compiled.get(dialect);
    if (!entry) {
      const placeholders = Array.from({ length: arity }, (_, i) => `\u0000prepared-param-${i}\u0000`) as Params;
      const query = build(db, ...placeholders).compile();
      const slots = query.parameters.map((value) => {
        const index = placeholders.indexOf(value as never);
        return index < 0 ? undefined : index;
      });
      for (let i = 0; i < arity; i++) {
        if (!slots.includes(i)) throw new Error(`preparedQuery: parameter ${i} does not appear in ${query.sql}`);
      }
      entry = { query, slots };
      compiled.set(dialect, entry);
    }
    return entry;
  }

  async function rows(db: Kysely<Tables>, params: Params): Promise<Row[]> {
    const { query, slots } = prepare(db, params.length);
    const parameters = query.parameters.map((constant, i) => {
      const slot = slots[i];
      return slot === undefined ? constant : params[slot];
    });
    const result = await db.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  }

  return {
    all: (db: Kysely<Tables>, ...params: Params): Promise<Row[]> => rows(db, params),
    first: async (db: Kysely<Tables>, ...params: Params): Promise<Row | undefined> => (await rows(db, params))[0],
  };
}
