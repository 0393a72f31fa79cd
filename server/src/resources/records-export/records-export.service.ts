import type { Kysely } from 'kysely';
import { RECORDS_EXPORT_FORMATS, type RecordsExportFormat } from '@scholia/shared/contract';
import { requireAdminMember } from '../../auth/access.js';
import { UnprocessableError } from '../../errors.js';
import { listFields, listMetadataProperties, listQuestions } from '../../storage/repositories/dataset-settings.repository.js';
import {
  listRecordsAfter,
  listSubmittedResponses,
  listSuggestionsOfRecords,
  listValidationsOfRecords,
} from '../../storage/repositories/records-export.repository.js';
import type { Tables, UserRow } from '../../storage/tables.js';
import { getDatasetOrThrow } from '../datasets/dataset-lookup.js';
import { attachmentFilename } from './attachment-filename.js';
import { csvRow } from './csv.js';
import { csvCellsOf, exportColumns, exportLayout, exportRows, type ExportLayout } from './export-rows.js';

/** Records read per query: a page's rows are all the export holds in memory at once. */
export const EXPORT_PAGE_SIZE = 1_000;

export interface RecordsExport {
  contentType: string;
  contentDisposition: string;
  /** The file's text, a page of records per chunk. */
  chunks: AsyncIterable<string>;
}

const CONTENT_TYPES: Record<RecordsExportFormat, string> = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/**
 * The records of a dataset as a JSONL or CSV file (Scholia extension). Checks run before the
 * first byte is sent (load → 404, admin member/owner → 403, format → 422); the rows are then read
 * a page at a time as the client takes them.
 */
export async function prepareRecordsExport(db: Kysely<Tables>, user: UserRow, datasetId: string, format: string): Promise<RecordsExport> {
  const dataset = await getDatasetOrThrow(db, datasetId);
  await requireAdminMember(db, user, dataset.workspace_id);
  if (!isExportFormat(format)) throw new UnprocessableError(`Unknown export format \`${format}\`: use one of ${RECORDS_EXPORT_FORMATS.join(', ')}`);

  const [fields, metadata, questions] = await Promise.all([listFields(db, dataset.id), listMetadataProperties(db, dataset.id), listQuestions(db, dataset.id)]);
  const layout = exportLayout({
    fields: fields.map((f) => f.name),
    metadata: metadata.map((m) => m.name),
    questions: questions.map((q) => ({ id: q.id, name: q.name })),
  });
  return {
    contentType: CONTENT_TYPES[format],
    contentDisposition: `attachment; filename="${attachmentFilename(dataset.name, format)}"`,
    chunks: format === 'csv' ? csvChunks(db, dataset.id, layout) : jsonlChunks(db, dataset.id, layout),
  };
}

function isExportFormat(format: string): format is RecordsExportFormat {
  return (RECORDS_EXPORT_FORMATS as readonly string[]).includes(format);
}

async function* jsonlChunks(db: Kysely<Tables>, datasetId: string, layout: ExportLayout): AsyncGenerator<string> {
  for await (const rows of pagesOfRows(db, datasetId, layout)) yield rows.map((row) => `${JSON.stringify(row)}\n`).join('');
}

async function* csvChunks(db: Kysely<Tables>, datasetId: string, layout: ExportLayout): AsyncGenerator<string> {
  const columns = exportColumns(layout);
  const cellsOf = csvCellsOf(layout, columns);
  yield csvRow(columns);
  for await (const rows of pagesOfRows(db, datasetId, layout)) yield rows.map((row) => csvRow(cellsOf(row))).join('');
}

/** The dataset's export rows, EXPORT_PAGE_SIZE records at a time in insertion order. */
async function* pagesOfRows(db: Kysely<Tables>, datasetId: string, layout: ExportLayout): AsyncGenerator<Record<string, unknown>[]> {
  let afterRid = 0;
  for (;;) {
    const records = await listRecordsAfter(db, datasetId, afterRid, EXPORT_PAGE_SIZE);
    if (records.length === 0) return;
    const ids = records.map((r) => r.id);
    const [responses, suggestions, validations] = await Promise.all([
      listSubmittedResponses(db, ids),
      listSuggestionsOfRecords(db, ids),
      listValidationsOfRecords(db, ids),
    ]);
    yield exportRows(layout, { records, responses, suggestions, validations });
    if (records.length < EXPORT_PAGE_SIZE) return;
    afterRid = Number(records[records.length - 1].rid);
  }
}
