import type { RecordsExportFormat } from '../contract/records-export.js';
import { apiDownload, type DownloadedFile } from './http-client.js';

export type { RecordsExportFormat } from '../contract/records-export.js';

/**
 * The dataset's records as a file (Scholia extension, owners and admins): fetched whole, with
 * the file name the server gives or `<dataset>.<format>`. Errors go through the global handler.
 */
export async function downloadRecordsExport(dataset: { id: string; name: string }, format: RecordsExportFormat): Promise<Required<DownloadedFile>> {
  const file = await apiDownload(`v1/datasets/${dataset.id}/records/export`, { query: { format } });
  return { blob: file.blob, filename: file.filename ?? `${dataset.name}.${format}` };
}
