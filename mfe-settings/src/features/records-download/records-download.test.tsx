import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeToken } from '@scholia/shared/api';
import { failWith, fakeApi, makeDataset } from '../../test/fake-api.js';
import { renderRemote } from '../../test/render.js';
import { RecordsDownload } from './records-download.js';

const JSONL = '{"id":"r1"}\n{"id":"r2"}\n';

describe('Download records', () => {
  const saved: { href: string; download: string }[] = [];
  let blobs: Map<string, Blob>;

  beforeEach(() => {
    saved.length = 0;
    blobs = new Map();
    let next = 0;
    vi.stubGlobal('URL', Object.assign(class extends URL {}, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:test/${++next}`;
        blobs.set(url, blob);
        return url;
      },
      revokeObjectURL: (url: string) => blobs.delete(url),
    }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    writeToken(undefined);
  });

  it('fetches the chosen format with the credentials and saves it under the name the server gives', async () => {
    writeToken('token.owner');
    const api = fakeApi({
      'GET v1/datasets/d1/records/export': () => new Response('id,text\r\nr1,hello\r\n', {
        headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="reviews.csv"' },
      }),
    });
    renderRemote(<RecordsDownload dataset={makeDataset()} />);
    fireEvent.click(screen.getByLabelText(/^CSV/));
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));

    expect((await screen.findByTestId('records-download-done')).textContent).toBe('reviews.csv was downloaded.');
    const fetched = vi.mocked(fetch).mock.calls[0];
    expect(fetched[0]).toBe('/api/v1/datasets/d1/records/export?format=csv');
    expect((fetched[1] as RequestInit).headers).toEqual({ Authorization: 'Bearer token.owner' });
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET v1/datasets/d1/records/export']);
    expect(saved).toEqual([{ href: 'blob:test/1', download: 'reviews.csv' }]);
    expect(await blobs.get('blob:test/1')?.text()).toBe('id,text\r\nr1,hello\r\n');
  });

  it('asks for JSON Lines by default and names the file after the dataset when the server gives no name', async () => {
    fakeApi({ 'GET v1/datasets/d1/records/export': () => new Response(JSONL, { headers: { 'Content-Type': 'application/x-ndjson' } }) });
    renderRemote(<RecordsDownload dataset={makeDataset()} />);
    expect((screen.getByLabelText(/^JSON Lines/) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));

    await screen.findByTestId('records-download-done');
    expect(vi.mocked(fetch).mock.calls[0][0]).toBe('/api/v1/datasets/d1/records/export?format=jsonl');
    expect(saved).toEqual([{ href: 'blob:test/1', download: 'reviews.jsonl' }]);
    expect(await blobs.get('blob:test/1')?.text()).toBe(JSONL);
  });

  it("shows the server's refusal and saves nothing", async () => {
    const api = fakeApi({ 'GET v1/datasets/d1/records/export': () => failWith(403, { detail: 'Operation not allowed' }) });
    renderRemote(<RecordsDownload dataset={makeDataset()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));

    expect((await screen.findByTestId('records-download-error')).textContent).toBe('Operation not allowed');
    expect(saved).toEqual([]);
    expect(api.toasts.length).toBeGreaterThan(0);
  });
});
