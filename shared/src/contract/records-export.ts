import { Type, type Static } from '@sinclair/typebox';

/** The file formats of `GET /datasets/{id}/records/export`. */
export const RECORDS_EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type RecordsExportFormat = (typeof RECORDS_EXPORT_FORMATS)[number];

/** `GET /datasets/{id}/records/export` (Scholia extension): the format is checked by the server, which answers 422 with a `detail` naming the known ones. */
export const RecordsExportQuery = Type.Object({
  format: Type.String({ maxLength: 20 }),
});
export type RecordsExportQuery = Static<typeof RecordsExportQuery>;
