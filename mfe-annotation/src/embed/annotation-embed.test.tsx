import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnnotationEvent } from '@scholia/shared';
import { queryClient, readToken, writeToken } from '@scholia/shared/api';
import { App } from '../expose/app.js';

interface Call { method: string; path: string; body?: unknown }

/** A fake API for one dataset with one text question; `respond` decides each answer write. */
function serveDataset(respond: (call: Call) => Response = () => Response.json({ id: 'resp1', status: 'draft', values: {}, updated_at: '' })) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://host.test').pathname.replace(/^\/api\//, '');
    const call = { method: init.method ?? 'GET', path, body: init.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    if (path === 'v1/me') {
      // Each server and credential is a user of its own.
      const headers = (init.headers ?? {}) as Record<string, string>;
      const id = `${new URL(url, 'http://host.test').host} ${(headers.Authorization ?? headers['X-Argilla-Api-Key'] ?? '').replace(/.*-/, 'user-')}`;
      return Response.json({ id, username: 'ann', role: 'annotator' });
    }
    if (path === 'v1/datasets/d1') return Response.json({ id: 'd1', name: 'reviews', guidelines: null, workspace_id: 'w1' });
    if (path === 'v1/datasets/d1/fields') return Response.json({ items: [{ id: 'f1', name: 'text', title: 'Text', required: true, settings: { type: 'text' }, dataset_id: 'd1' }] });
    if (path === 'v1/datasets/d1/questions') return Response.json({ items: [{ id: 'q1', name: 'comment', title: 'Comment', required: true, settings: { type: 'text' }, dataset_id: 'd1' }] });
    if (path === 'v1/datasets/d1/progress') return Response.json({ total: 2, completed: 0, pending: 2, users: [] });
    if (path === 'v1/me/datasets/d1/records/search') {
      const record = (id: string) => ({ record: { id, dataset_id: 'd1', fields: { text: `text of ${id}` }, status: 'pending', responses: [], suggestions: [], metadata: {} }, query_score: null });
      return Response.json({ items: [record('r1'), record('r2')], total: 2 });
    }
    if (call.method !== 'GET') return respond(call);
    return Response.json({ items: [] });
  }));
  return calls;
}

async function openRecord(events: AnnotationEvent[] = [], props: Record<string, unknown> = {}) {
  render(
    <div>
      <button type="button" data-testid="host-button">host</button>
      <App datasetId="d1" onEvent={(event) => events.push(event)} {...props} />
    </div>,
  );
  return screen.findByTestId('focus-record', {}, { timeout: 5000 });
}

describe('the annotation remote in a foreign React host', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear(); // each test is a new tab: no position remembered from the last one
    queryClient.clear();
    document.documentElement.lang = 'fr';
    writeToken('token-of-ann');
  });
  afterEach(cleanup);

  it('renders without a router or query client from the host, leaves <html lang> alone and reports what it shows', async () => {
    serveDataset();
    const events: AnnotationEvent[] = [];
    const record = await openRecord(events);
    expect(record.getAttribute('data-record-id')).toBe('r1');
    expect(document.documentElement.lang).toBe('fr');
    await waitFor(() => expect(events).toContainEqual({ type: 'progress-changed', datasetId: 'd1', total: 2, completed: 0, pending: 2 }));
    expect(events).toContainEqual({ type: 'record-shown', datasetId: 'd1', recordId: 'r1', status: 'pending' });
  });

  it("keeps its shortcuts to itself: a key on the host's button does nothing, the same key inside the remote acts", async () => {
    serveDataset();
    await openRecord();
    fireEvent.keyDown(screen.getByTestId('host-button'), { key: 'ArrowRight' });
    fireEvent.keyDown(screen.getByTestId('host-button'), { key: 's', ctrlKey: true });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByTestId('focus-record').getAttribute('data-record-id')).toBe('r1');
    fireEvent.keyDown(screen.getByTestId('annotation-root'), { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getByTestId('focus-record').getAttribute('data-record-id')).toBe('r2'));
  });

  it("lets a host that gives it the page opt in to shortcuts while nothing has focus, never on the host's own controls", async () => {
    serveDataset();
    await openRecord([], { shortcutScope: 'page' });
    fireEvent.keyDown(screen.getByTestId('host-button'), { key: 'ArrowRight' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByTestId('focus-record').getAttribute('data-record-id')).toBe('r1');
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getByTestId('focus-record').getAttribute('data-record-id')).toBe('r2'));
  });

  it("stops the keys it acts on: the host's listeners and React handlers around it never see them, keys it leaves alone reach the host", async () => {
    serveDataset(() => Response.json({ id: 'resp1', status: 'draft', values: { comment: { value: 'typed' } }, updated_at: '' }, { status: 201 }));
    const events: AnnotationEvent[] = [];
    const seen: string[] = [];
    const onWindow = (event: KeyboardEvent) => seen.push(`window ${event.key}`);
    const onDocument = (event: KeyboardEvent) => seen.push(`document ${event.key}`);
    window.addEventListener('keydown', onWindow);
    document.addEventListener('keydown', onDocument);
    try {
      render(
        <div onKeyDown={(event) => seen.push(`host ${event.key}`)}>
          <App datasetId="d1" onEvent={(event) => events.push(event)} />
        </div>,
      );
      const textbox = await screen.findByRole('textbox', {}, { timeout: 5000 });
      fireEvent.change(textbox, { target: { value: 'typed' } });
      fireEvent.keyDown(textbox, { key: 's', ctrlKey: true });
      await waitFor(() => expect(events.some((e) => e.type === 'response-drafted')).toBe(true));
      fireEvent.keyDown(screen.getByTestId('annotation-root'), { key: 'ArrowRight' });
      await waitFor(() => expect(screen.getByTestId('focus-record').getAttribute('data-record-id')).toBe('r2'));
      expect(seen).toEqual([]);
      // A key the remote does nothing with is the host's.
      fireEvent.keyDown(screen.getByTestId('annotation-root'), { key: 'x' });
      expect(seen).toEqual(['host x', 'document x', 'window x']);
    } finally {
      window.removeEventListener('keydown', onWindow);
      document.removeEventListener('keydown', onDocument);
    }
  });

  it('says so when the server fails a save with 502, keeps the answer, and a retry saves it', async () => {
    let failures = 1;
    const calls = serveDataset(() => (failures-- > 0
      ? new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } })
      : Response.json({ id: 'resp1', status: 'draft', values: { comment: { value: 'kept' } }, updated_at: '' }, { status: 201 })));
    const events: AnnotationEvent[] = [];
    await openRecord(events);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'kept' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
    const alert = await screen.findByTestId('save-error');
    expect(alert.textContent).toBe('Your answer could not be saved (HTTP 502). It is still here: try again.');
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).value).toBe('kept');
    expect(events.some((e) => e.type === 'response-drafted')).toBe(false);
    expect(localStorage.length).toBe(1); // the token only: nothing went to the offline outbox
    fireEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() => expect(events).toContainEqual({ type: 'response-drafted', datasetId: 'd1', recordId: 'r1', status: 'draft', keptOffline: false }));
    expect(screen.queryByTestId('save-error')).toBeNull();
    const writes = calls.filter((c) => c.method === 'POST' && c.path === 'v1/records/r1/responses');
    expect(writes.map((c) => c.body)).toEqual([
      { status: 'draft', values: { comment: { value: 'kept' } } },
      { status: 'draft', values: { comment: { value: 'kept' } } },
    ]);
  });

  it("speaks through its own i18next: a host whose i18next is in another language keeps it, and the remote shows no raw keys", async () => {
    const { i18next } = await import('@scholia/shared/i18n');
    await i18next.changeLanguage('de');
    try {
      serveDataset();
      await openRecord();
      expect(screen.getByRole('button', { name: 'Save as draft' })).toBeTruthy();
      expect(i18next.language).toBe('de');
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it("talks to the server and as the annotator a host on another origin names, in the language it asks for", async () => {
    serveDataset();
    try {
      await openRecord([], { apiBaseUrl: 'https://labels.example.org/api', token: 'token-from-host', language: 'es' });
      const requests = vi.mocked(fetch).mock.calls.map(([url, init]) => ({ url: String(url), headers: (init?.headers ?? {}) as Record<string, string> }));
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.every((r) => r.url.startsWith('https://labels.example.org/api/v1/'))).toBe(true);
      expect(requests.every((r) => r.headers.Authorization === 'Bearer token-from-host')).toBe(true);
      expect(await screen.findByRole('button', { name: 'Guardar como borrador' })).toBeTruthy();
      // The host's token and language stay in this instance: the page's session and language are untouched.
      expect(readToken()).toBe('token-of-ann');
      expect(JSON.stringify({ ...localStorage })).not.toContain('token-from-host');
      const { annotationI18n } = await import('../i18n/register-annotation-i18n.js');
      expect(annotationI18n.language).toBe('en');
    } finally {
      cleanup();
    }
  });

  it('keeps two instances on one page apart: each reads and writes on its own server as its own annotator, and leaves nothing behind', async () => {
    serveDataset(() => Response.json({ id: 'resp', status: 'draft', values: {}, updated_at: '' }, { status: 201 }));
    const view = render(
      <div>
        <section data-testid="slot-a">
          <App datasetId="d1" apiBaseUrl="https://a.example.org/api" token="token-a" language="de" />
        </section>
        <section data-testid="slot-b">
          <App datasetId="d1" apiBaseUrl="https://b.example.org/api" apiKey="key-b" language="es" />
        </section>
      </div>,
    );
    const slotA = within(await screen.findByTestId('slot-a', {}, { timeout: 5000 }));
    const slotB = within(screen.getByTestId('slot-b'));
    fireEvent.change(await slotA.findByRole('textbox', {}, { timeout: 5000 }), { target: { value: 'from a' } });
    fireEvent.click(slotA.getByRole('button', { name: 'Als Entwurf speichern' }));
    fireEvent.change(await slotB.findByRole('textbox', {}, { timeout: 5000 }), { target: { value: 'from b' } });
    fireEvent.click(slotB.getByRole('button', { name: 'Guardar como borrador' }));
    const requests = () => vi.mocked(fetch).mock.calls.map(([url, init]) => ({
      url: String(url), method: init?.method ?? 'GET', headers: (init?.headers ?? {}) as Record<string, string>, body: init?.body ? String(init.body) : '',
    }));
    await waitFor(() => expect(requests().filter((r) => r.method === 'POST' && r.url.includes('/responses'))).toHaveLength(2));
    for (const request of requests()) {
      if (request.url.startsWith('https://a.example.org/api/')) expect(request.headers).toMatchObject({ Authorization: 'Bearer token-a' });
      else if (request.url.startsWith('https://b.example.org/api/')) {
        expect(request.headers['X-Argilla-Api-Key']).toBe('key-b');
        expect(request.headers.Authorization).toBeUndefined();
      } else throw new Error(`a request to neither server: ${request.url}`);
    }
    const writes = requests().filter((r) => r.method === 'POST' && r.url.includes('/responses'));
    expect(writes.map((w) => [new URL(w.url).host, JSON.parse(w.body).values.comment.value]).sort()).toEqual([
      ['a.example.org', 'from a'], ['b.example.org', 'from b'],
    ]);
    view.unmount();
    expect(readToken()).toBe('token-of-ann');
    expect(JSON.stringify({ ...localStorage })).not.toMatch(/token-a|key-b/);
  });

  it('keeps the position of each annotator on each server apart, though they open the same dataset id', async () => {
    serveDataset();
    const shown = (slot: string) => within(screen.getByTestId(slot)).queryByTestId('focus-record')?.getAttribute('data-record-id');
    const positions = () => Object.keys(sessionStorage).filter((key) => key.startsWith('scholia.annotation.position:')).map((key) => sessionStorage.getItem(key));
    const page = (secondToken: string) => render(
      <div>
        <section data-testid="slot-a"><App datasetId="d1" apiBaseUrl="https://a.example.org/api" token="token-a" /></section>
        <section data-testid="slot-b"><App datasetId="d1" apiBaseUrl="https://b.example.org/api" token={secondToken} /></section>
        <section data-testid="slot-c"><App datasetId="d1" apiBaseUrl="https://a.example.org/api" token="token-c" /></section>
      </div>,
    );
    let view = page('token-b');
    await waitFor(() => expect([shown('slot-a'), shown('slot-b'), shown('slot-c')]).toEqual(['r1', 'r1', 'r1']), { timeout: 5000 });
    fireEvent.keyDown(within(screen.getByTestId('slot-a')).getByTestId('annotation-root'), { key: 'ArrowRight' });
    await waitFor(() => expect(shown('slot-a')).toBe('r2'));
    await waitFor(() => expect(positions()).toContain('["r2"]'));
    view.unmount();

    // The page again (a reload of the tab): the first annotator goes on at r2, the others at r1,
    // the second server's annotator in a slot of its own, and a user of the first server too.
    view = page('token-b');
    await waitFor(() => expect(shown('slot-a')).toBe('r2'), { timeout: 5000 });
    await waitFor(() => expect([shown('slot-b'), shown('slot-c')]).toEqual(['r1', 'r1']));
    expect(positions().filter((ids) => ids === '["r2"]')).toHaveLength(1);
    view.unmount();
    // Another user signed in to the second server in this tab starts at their own position too.
    page('token-d');
    await waitFor(() => expect(shown('slot-a')).toBe('r2'), { timeout: 5000 });
    await waitFor(() => expect(shown('slot-b')).toBe('r1'));
    expect(JSON.stringify({ ...sessionStorage })).not.toMatch(/token-[abcd]/);
  });

  it('saves the answer being given as a draft when it is unmounted, and tells the host', async () => {
    const calls = serveDataset(() => Response.json({ id: 'resp1', status: 'draft', values: { comment: { value: 'half' } }, updated_at: '' }, { status: 201 }));
    const events: AnnotationEvent[] = [];
    const view = render(<App datasetId="d1" onEvent={(event) => events.push(event)} />);
    fireEvent.change(await screen.findByRole('textbox', {}, { timeout: 5000 }), { target: { value: 'half' } });
    view.unmount();
    await waitFor(() => expect(events).toContainEqual({ type: 'response-drafted', datasetId: 'd1', recordId: 'r1', status: 'draft', keptOffline: false }));
    expect(calls.filter((c) => c.method === 'POST' && c.path === 'v1/records/r1/responses').map((c) => c.body)).toEqual([
      { status: 'draft', values: { comment: { value: 'half' } } },
    ]);
  });

  it("shows no link to Scholia's own pages a host cannot follow, and follows them through the host's onNavigate", async () => {
    serveDataset();
    const view = render(<App datasetId="d1" />);
    await screen.findByTestId('focus-record', {}, { timeout: 5000 });
    await screen.findByTestId('annotation-dataset-name');
    expect(screen.queryByText('Dataset settings')).toBeNull();
    view.unmount();
    const targets: unknown[] = [];
    render(<App datasetId="d1" onNavigate={(target) => targets.push(target)} />);
    fireEvent.click(await screen.findByText('Dataset settings', {}, { timeout: 5000 }));
    expect(targets).toEqual([{ page: 'dataset-settings', datasetId: 'd1', path: '/dataset/d1/settings' }]);
    expect(window.location.pathname).toBe('/');
  });

  it('reports a server it cannot reach as load-failed with status 0, once', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    const events: AnnotationEvent[] = [];
    render(<App datasetId="d1" onEvent={(event) => events.push(event)} />);
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(events.filter((e) => e.type === 'load-failed')).toEqual([
      { type: 'load-failed', datasetId: 'd1', status: 0, message: 'The server could not be reached. Check your connection and try again.' },
    ]));
  });

  it('reports a refused token once, however many requests it failed', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ detail: 'Could not validate credentials' }, { status: 401 })));
    const events: AnnotationEvent[] = [];
    const toasts: string[] = [];
    const { bus } = await import('@scholia/shared/bus');
    const onToast = ({ message }: { message: string }) => toasts.push(message);
    bus.on('toast:requested', onToast);
    writeToken('expired-token');
    render(<App datasetId="d1" onEvent={(event) => events.push(event)} />);
    expect(await screen.findByTestId('session-expired')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    bus.off('toast:requested', onToast);
    expect(screen.getAllByTestId('session-expired')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'session-expired')).toHaveLength(1);
    expect(toasts).toEqual(['Could not validate credentials']);
    expect(vi.mocked(fetch).mock.calls.length).toBeGreaterThan(1);
  });
});
