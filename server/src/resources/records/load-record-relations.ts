import type { Kysely } from 'kysely';
import { presentVector } from '../../storage/vector-codec.js';
import { findValidations, type StoredValidation } from '../../storage/repositories/record-validations.repository.js';
import type { RecordRow, ResponseRow, SuggestionRow, Tables } from '../../storage/tables.js';
import type { RecordInclude } from './record-include.js';

export interface RecordRelations {
  responses?: ResponseRow[];
  suggestions?: SuggestionRow[];
  vectors?: Record<string, number[]>;
  /** The final answer of a validated record; loaded for owners and admins only. */
  validation?: StoredValidation;
}

export interface LoadRelationsOptions {
  /** `/me` routes: only this user's response is returned (contract §4.3). */
  responsesOfUserId?: string;
  /** Load each record's final answer (Scholia extension): never for annotators. */
  validation?: boolean;
}

const CHUNK = 500;

/** Loads the included relationships of many records with one query per relation and chunk. */
export async function loadRecordRelations(
  db: Kysely<Tables>,
  records: Pick<RecordRow, 'id'>[],
  include: RecordInclude,
  options: LoadRelationsOptions = {},
): Promise<Map<string, RecordRelations>> {
  const relations = new Map<string, RecordRelations>(
    records.map((r) => [
      r.id,
      {
        ...(include.responses ? { responses: [] } : {}),
        ...(include.suggestions ? { suggestions: [] } : {}),
        ...(include.vectors ? { vectors: {} } : {}),
      },
    ]),
  );
  for (let start = 0; start < records.length; start += CHUNK) {
    const ids = records.slice(start, start + CHUNK).map((r) => r.id);
    if (include.responses) {
      let query = db.selectFrom('responses').selectAll().where('record_id', 'in', ids);
      if (options.responsesOfUserId) query = query.where('user_id', '=', options.responsesOfUserId);
      for (const row of await query.orderBy('inserted_at').execute()) relations.get(row.record_id)!.responses!.push(row);
    }
    if (include.suggestions) {
      const rows = await db.selectFrom('suggestions').selectAll().where('record_id', 'in', ids).orderBy('inserted_at').execute();
      for (const row of rows) relations.get(row.record_id)!.suggestions!.push(row);
    }
    if (include.vectors) {
      let query = db
        .selectFrom('vectors')
        .innerJoin('vector_settings', 'vector_settings.id', 'vectors.vector_settings_id')
        .select(['vectors.record_id', 'vectors.value', 'vector_settings.name'])
        .where('vectors.record_id', 'in', ids);
      if (Array.isArray(include.vectors)) query = query.where('vector_settings.name', 'in', include.vectors);
      for (const row of await query.execute()) relations.get(row.record_id)!.vectors![row.name] = presentVector(row.value);
    }
  }
  if (options.validation) {
    for (const [id, validation] of await findValidations(db, records.map((r) => r.id))) relations.get(id)!.validation = validation;
  }
  return relations;
}
