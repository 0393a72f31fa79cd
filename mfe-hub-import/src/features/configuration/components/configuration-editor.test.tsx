import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHubEndpoints, queryClient } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerHubImportTranslations } from '../../../i18n/register-translations.js';
import { ConfigurationEditor } from './configuration-editor.js';

const INFO = {
  dataset_info: {
    default: {
      features: {
        id: { dtype: 'string', _type: 'Value' },
        text: { dtype: 'string', _type: 'Value' },
        label: { names: [' neg ', 'pos'], _type: 'ClassLabel' },
        n_words: { dtype: 'int32', _type: 'Value' },
      },
      splits: { train: { name: 'train', num_examples: 12 } },
    },
  },
};
const FIRST_ROW = { id: 'a-1', text: 'A fine film', label: 1, n_words: 3 };

interface Sent {
  method: string;
  path: string;
}

/** The viewer answers for `ns/known`; the app API answers the editor's reads and the creation calls in `api`. */
function stubFetch(api: Record<string, (body: unknown) => Response>) {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://app.test');
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (url.host === 'viewer.test') {
      if (url.pathname === '/info') return json(200, INFO);
      if (url.pathname === '/first-rows') return json(200, { rows: [{ row_idx: 0, row: FIRST_ROW }] });
      return json(404, { error: 'Not found.' });
    }
    const method = init.method ?? 'GET';
    const path = url.pathname.replace(/^\/api\//, '');
    sent.push({ method, path });
    if (path === 'v1/me') return json(200, { id: 'u1', username: 'olivia', role: 'owner', api_key: 'k', first_name: 'O', last_name: null });
    if (path === 'v1/me/workspaces') return json(200, { items: [{ id: 'w1', name: 'team' }] });
    const answer = api[`${method} ${path}`];
    return answer ? answer(typeof init.body === 'string' ? JSON.parse(init.body) : undefined) : json(404, { detail: 'Not Found' });
  }));
  return sent;
}

function renderEditor() {
  render(<RemoteProviders initialPath="/new/ns%2Fknown"><ConfigurationEditor repoId="ns/known" /></RemoteProviders>);
}

const labelQuestion = () => screen.getByRole('group', { name: 'Label' });
const createButton = () => screen.getByRole('button', { name: 'Create dataset' });

describe('ConfigurationEditor (/new/:id)', () => {
  beforeEach(() => {
    registerHubImportTranslations();
    configureHubEndpoints({ hubUrl: 'http://hub.test', datasetsServerUrl: 'http://viewer.test' });
    queryClient.clear();
  });
  afterEach(cleanup);

  it('starts from the spec defaults: a label question from the ClassLabel, its suggestion in the preview', async () => {
    stubFetch({});
    renderEditor();
    expect(await screen.findByRole('heading', { name: 'Configure your dataset' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Maps to text').value).toBe('field:text');
    expect(screen.getByLabelText<HTMLSelectElement>('Maps to n_words').value).toBe('metadata:integer');
    expect(screen.getByText('This column becomes the record id (external id).')).toBeTruthy();
    expect(within(labelQuestion()).getByLabelText<HTMLInputElement>('Options (separated by commas)').value).toBe('neg, pos');
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText('A fine film')).toBeTruthy();
    expect(preview.querySelector('[data-question="label"] [data-suggested]')?.textContent).toBe('pos');
    expect((createButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows every creation message of spec §5 next to its input, and Create stays disabled', async () => {
    const sent = stubFetch({});
    renderEditor();
    await screen.findByRole('heading', { name: 'Configure your dataset' });
    const options = within(labelQuestion()).getByLabelText('Options (separated by commas)');

    fireEvent.change(options, { target: { value: 'neg' } });
    expect(within(labelQuestion()).getByText('At least two options are required')).toBeTruthy();
    expect(screen.getByText('Some questions are invalid')).toBeTruthy();
    expect((createButton() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(options, { target: { value: 'neg, pos' } });

    fireEvent.click(within(labelQuestion()).getByLabelText('Required'));
    expect(screen.getByText('At least one required question is needed.')).toBeTruthy();
    expect((createButton() as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('Question type'), { target: { value: 'span' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a question' }));
    const span = screen.getByRole('group', { name: 'Span' });
    fireEvent.change(within(span).getByLabelText('Text field to annotate'), { target: { value: '' } });
    expect(within(span).getByText('One text field is required')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Remove question label' }));
    fireEvent.click(screen.getByRole('button', { name: /^Remove question span/ }));
    expect(screen.getByText('At least one question is required.')).toBeTruthy();
    expect((createButton() as HTMLButtonElement).disabled).toBe(true);
    expect(sent.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('deletes the dataset when a step after its creation fails, and says which step and why', async () => {
    const fail = () => new Response(JSON.stringify({ detail: 'Boom' }), { status: 500, headers: { 'Content-Type': 'application/json' } });
    const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 201, headers: { 'Content-Type': 'application/json' } });
    const sent = stubFetch({
      'POST v1/datasets': () => ok({ id: 'd1', name: 'known' }),
      'POST v1/datasets/d1/fields': () => ok({ id: 'f1' }),
      'POST v1/datasets/d1/questions': fail,
      'DELETE v1/datasets/d1': () => ok({ id: 'd1' }),
    });
    renderEditor();
    await screen.findByRole('heading', { name: 'Configure your dataset' });
    fireEvent.click(createButton());
    expect((await screen.findByTestId('creation-failed')).textContent).toBe('The dataset was not created: adding the questions failed. Boom');
    await waitFor(() => expect(sent.filter((c) => c.method !== 'GET')).toEqual([
      { method: 'POST', path: 'v1/datasets' },
      { method: 'POST', path: 'v1/datasets/d1/fields' },
      { method: 'POST', path: 'v1/datasets/d1/questions' },
      { method: 'DELETE', path: 'v1/datasets/d1' },
    ]));
  });
});
