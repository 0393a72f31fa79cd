import { asyncBufferFromUrl, cachedAsyncBuffer, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { featuresFromViewerList, normalizeFeatures, type Feature } from './hub-features.js';
import { fetchHubJson, HubHttpError, hubUrl } from './hub-http.js';

export interface HubRowsRequest {
  /** Dataset viewer base URL (SCHOLIA_DATASETS_SERVER_URL). */
  viewerUrl: string;
  dataset: string;
  subset: string;
  split: string;
  /** Columns to read (mapped columns only, hub-contract §2). */
  columns: string[];
  /** At most this many rows, from the first one. */
  limit: number;
  token?: string;
  signal?: AbortSignal;
}

export interface HubRows {
  rows: Record<string, unknown>[];
  features: Record<string, Feature>;
  /** Where the rows came from: the parquet export or the viewer's `/rows` pages. */
  source: 'parquet' | 'rows';
}

interface ParquetListing {
  parquet_files: { dataset: string; config: string; split: string; url: string; filename: string; size: number }[];
  features?: unknown;
}

interface RowsPage {
  features: unknown;
  rows: { row_idx: number; row: Record<string, unknown> }[];
  num_rows_total: number;
}

const ROWS_PAGE = 100;
const ROWS_CONCURRENCY = 8;

/**
 * The first `limit` rows of one subset and split [ours, hub-contract §2]: the parquet export
 * (`/parquet` listing, then HTTP range reads with hyparquet, mapped columns only) when there is
 * one, else the viewer's `/rows` pages of 100 fetched a few at a time. Both are exact; parquet is
 * faster (one request per column chunk instead of one per 100 rows).
 */
export async function readHubRows(request: HubRowsRequest): Promise<HubRows> {
  const listing = await listParquetFiles(request);
  const files = listing?.parquet_files.filter((f) => f.split === request.split) ?? [];
  if (files.length > 0) return readParquetRows(request, files, listing?.features);
  return readViewerRows(request);
}

async function listParquetFiles(request: HubRowsRequest): Promise<ParquetListing | undefined> {
  const url = hubUrl(request.viewerUrl, ['parquet'], { dataset: request.dataset, config: request.subset });
  try {
    return await fetchHubJson<ParquetListing>(url, request);
  } catch (error) {
    // No parquet export (yet): fall back to /rows. Unknown datasets fail there with the viewer's message.
    if (error instanceof HubHttpError && error.status !== 401) return undefined;
    throw error;
  }
}

async function readParquetRows(request: HubRowsRequest, files: ParquetListing['parquet_files'], listed: unknown): Promise<HubRows> {
  const sorted = [...files].sort((a, b) => a.filename.localeCompare(b.filename, 'en', { numeric: true }));
  const rows: Record<string, unknown>[] = [];
  let features: Record<string, Feature> = normalizeFeatures(listed);
  const requestInit: RequestInit = { signal: request.signal, headers: request.token ? { Authorization: `Bearer ${request.token}` } : {} };
  for (const file of sorted) {
    if (rows.length >= request.limit) break;
    const remote = await asyncBufferFromUrl({ url: file.url, byteLength: file.size, requestInit });
    const buffer = cachedAsyncBuffer(remote);
    const metadata = await parquetMetadataAsync(buffer);
    if (Object.keys(features).length === 0) features = featuresFromParquetMetadata(metadata.key_value_metadata);
    const available = Number(metadata.num_rows);
    const wanted = Math.min(available, request.limit - rows.length);
    if (wanted <= 0) continue;
    const fileColumns = new Set(metadata.schema.map((s) => s.name));
    const missing = request.columns.filter((c) => !fileColumns.has(c));
    if (missing.length > 0) throw new Error(`Column(s) not found in the dataset: ${missing.join(', ')}`);
    const part = (await parquetReadObjects({
      file: buffer,
      metadata,
      columns: request.columns,
      rowStart: 0,
      rowEnd: wanted,
      utf8: false,
      compressors,
    })) as Record<string, unknown>[];
    for (const row of part) rows.push(row);
  }
  if (Object.keys(features).length === 0) features = await fetchInfoFeatures(request);
  return { rows: rows.slice(0, request.limit), features, source: 'parquet' };
}

function featuresFromParquetMetadata(kv: { key: string; value?: string }[] | undefined): Record<string, Feature> {
  const value = kv?.find((entry) => entry.key === 'huggingface')?.value;
  if (!value) return {};
  try {
    const parsed = JSON.parse(value) as { info?: { features?: unknown } };
    return normalizeFeatures(parsed.info?.features);
  } catch {
    return {};
  }
}

async function fetchInfoFeatures(request: HubRowsRequest): Promise<Record<string, Feature>> {
  const url = hubUrl(request.viewerUrl, ['info'], { dataset: request.dataset, config: request.subset });
  try {
    const info = await fetchHubJson<{ dataset_info?: { features?: unknown } }>(url, request);
    return normalizeFeatures(info.dataset_info?.features);
  } catch {
    return {};
  }
}

async function readViewerRows(request: HubRowsRequest): Promise<HubRows> {
  const page = (offset: number) =>
    fetchHubJson<RowsPage>(
      hubUrl(request.viewerUrl, ['rows'], {
        dataset: request.dataset,
        config: request.subset,
        split: request.split,
        offset: String(offset),
        length: String(ROWS_PAGE),
      }),
      request,
    );
  const first = await page(0);
  const features = featuresFromViewerList(first.features);
  const total = Math.min(first.num_rows_total, request.limit);
  const offsets: number[] = [];
  for (let offset = ROWS_PAGE; offset < total; offset += ROWS_PAGE) offsets.push(offset);
  const pages: RowsPage[] = [first];
  for (let i = 0; i < offsets.length; i += ROWS_CONCURRENCY) {
    pages.push(...(await Promise.all(offsets.slice(i, i + ROWS_CONCURRENCY).map(page))));
  }
  const rows = pages
    .flatMap((p) => p.rows)
    .sort((a, b) => a.row_idx - b.row_idx)
    .slice(0, request.limit)
    .map((r) => Object.fromEntries(request.columns.map((c) => [c, r.row[c]])));
  return { rows, features, source: 'rows' };
}
