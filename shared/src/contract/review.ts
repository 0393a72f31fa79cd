import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from './common.js';
import { ResponseValues } from './responses.js';

/** `PUT /records/{id}/validation` (Scholia extension): the final value per question, checked like a submitted response. */
export const ValidationBody = Type.Object({ values: ResponseValues });
export type ValidationBody = Static<typeof ValidationBody>;

/** `POST /datasets/{id}/records/validation/bulk`: the records to consider; omitted = every record of the dataset. */
export const BulkValidationBody = Type.Object({
  record_ids: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 1000 })),
});
export type BulkValidationBody = Static<typeof BulkValidationBody>;

/** `GET /datasets/{id}/agreement`: `filters` is a search body's `filters` object as JSON (`{"and":[...]}`). */
export const AgreementQuery = Type.Object({
  filters: Type.Optional(Type.String({ maxLength: 20_000 })),
});
export type AgreementQuery = Static<typeof AgreementQuery>;
