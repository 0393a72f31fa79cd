import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient, type Question } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerAnnotationI18n } from '../../i18n/register-annotation-i18n.js';
import { ReviewPanel } from './review-panel.js';

const question = (name: string, type: string): Question =>
  ({ id: `q-${name}`, name, title: name, required: true, settings: { type, options: ['a', 'b', 'c', 'yes', 'no'].map((value) => ({ value, text: value })) }, dataset_id: 'd1' }) as unknown as Question;
const questions = [question('label', 'label_selection'), question('topics', 'multi_label_selection')];
const submitted = (userId: string, label: string, topics: string[]) => ({
  id: `r-${userId}`, user_id: userId, status: 'submitted', updated_at: '', values: { label: { value: label }, topics: { value: topics } },
});

function serve(record: Record<string, unknown>) {
  const writes: { method: string; url: string; body: unknown }[] = [];
  queryClient.clear();
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    if (method !== 'GET') {
      writes.push({ method, url, body: init.body ? JSON.parse(init.body as string) : undefined });
      if (method === 'PUT') record.validation = { status: 'validated', values: JSON.parse(init.body as string).values, validated_by: 'u0', inserted_at: '', updated_at: '' };
      else delete record.validation;
      return Response.json(record.validation ?? {});
    }
    if (url.includes('v1/datasets/d1')) return Response.json({ id: 'd1', workspace_id: 'w1' });
    if (url.includes('v1/workspaces/w1/users')) return Response.json({ items: [{ id: 'u1', username: 'alice' }, { id: 'u2', username: 'bob' }] });
    return Response.json(record);
  }));
  return writes;
}

describe('ReviewPanel', () => {
  beforeAll(registerAnnotationI18n);
  afterEach(cleanup);

  it('lists every submitted answer, marks disagreements, validates the accepted answers and reopens', async () => {
    const record = { id: 'rec1', dataset_id: 'd1', fields: {}, status: 'completed', responses: [submitted('u1', 'yes', ['a', 'b']), submitted('u2', 'no', ['b', 'a']), { ...submitted('u3', 'no', []), status: 'draft' }] };
    const writes = serve(record);
    render(<RemoteProviders><ReviewPanel datasetId="d1" recordId="rec1" fields={[]} questions={questions} /></RemoteProviders>);

    const label = await screen.findByTestId('review-question-label');
    expect(label.dataset.disagree).toBe('true');
    expect(screen.getByTestId('review-question-topics').dataset.disagree).toBe('false'); // the same selection in another order
    expect(label.querySelectorAll('li')).toHaveLength(2); // the draft is no submitted answer

    fireEvent.click(screen.getByRole('button', { name: 'no' }));
    expect(screen.getByTestId('review-final-label').textContent).toBe('Final answer: no');
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByTestId('review-validated');
    expect(writes[0]).toMatchObject({ method: 'PUT', body: { values: { label: { value: 'no' }, topics: { value: ['a', 'b'] } } } });
    expect(writes[0].url).toContain('v1/records/rec1/validation');

    fireEvent.click(screen.getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(screen.queryByTestId('review-validated')).toBeNull());
    expect(writes[1]).toMatchObject({ method: 'DELETE' });
  });

  it('names annotators by username and validates a final answer edited with the answering widgets', async () => {
    const record = { id: 'rec1', dataset_id: 'd1', fields: {}, status: 'completed', responses: [submitted('u1', 'yes', ['a']), submitted('u2', 'no', ['b'])] };
    const writes = serve(record);
    render(<RemoteProviders><ReviewPanel datasetId="d1" recordId="rec1" fields={[]} questions={questions} /></RemoteProviders>);

    const label = await screen.findByTestId('review-question-label');
    await waitFor(() => expect([...label.querySelectorAll('[data-testid="review-annotator"]')].map((e) => e.textContent)).toEqual(['by alice', 'by bob']));
    fireEvent.click(screen.getByRole('button', { name: 'Edit final answer' }));
    const editor = screen.getByTestId('review-editor');
    const topics = editor.querySelector('[data-testid="question-input-topics"]') as HTMLElement;
    fireEvent.click([...topics.querySelectorAll('button')].find((button) => button.textContent?.includes('c')) as HTMLElement);
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByTestId('review-validated');
    expect(writes[0]).toMatchObject({ method: 'PUT', body: { values: { label: { value: 'yes' }, topics: { value: ['a', 'c'] } } } });
  });

  it('beside the form, stays away from a record with no submitted answer until one arrives or it is validated', async () => {
    const draft = { ...submitted('u1', 'yes', ['a']), status: 'draft' };
    const record: Record<string, unknown> = { id: 'rec1', dataset_id: 'd1', fields: {}, status: 'pending', responses: [draft] };
    serve(record);
    const panel = (id: string) => <RemoteProviders><ReviewPanel datasetId="d1" recordId={id} fields={[]} questions={questions} onlyWhenReviewable /></RemoteProviders>;
    const { rerender } = render(panel('rec1'));
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).includes('v1/records/rec1'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('review-panel')).toBeNull();

    record.responses = [draft, submitted('u2', 'no', ['b'])];
    rerender(panel('rec2'));
    expect(await screen.findByTestId('review-panel')).toBeTruthy();

    record.responses = [];
    record.validation = { status: 'validated', values: { label: { value: 'no' } }, validated_by: 'u0', inserted_at: '', updated_at: '' };
    rerender(panel('rec3'));
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).includes('v1/records/rec3'))).toBe(true));
    expect(await screen.findByTestId('review-validated')).toBeTruthy();
  });

  it('marks a final answer whose responses changed since', async () => {
    const record = { id: 'rec1', dataset_id: 'd1', fields: {}, status: 'completed', responses: [submitted('u1', 'yes', ['a'])], validation: { status: 'validated', values: { label: { value: 'no' } }, validated_by: 'u0', stale: true, inserted_at: '', updated_at: '' } };
    serve(record);
    render(<RemoteProviders><ReviewPanel datasetId="d1" recordId="rec1" fields={[]} questions={questions} /></RemoteProviders>);
    expect((await screen.findByTestId('review-stale')).textContent).toBe('Answers changed since validation');
  });

  it('reads the workspace members once, not again with each record after an answer', async () => {
    const record = { id: 'rec1', dataset_id: 'd1', fields: {}, status: 'completed', responses: [submitted('u1', 'yes', ['a'])] };
    serve(record);
    const { rerender } = render(<RemoteProviders><ReviewPanel datasetId="d1" recordId="rec1" fields={[]} questions={questions} /></RemoteProviders>);
    expect((await screen.findAllByText('by alice')).length).toBeGreaterThan(0);
    await queryClient.invalidateQueries({ queryKey: ['GET'] }); // what a saved answer does
    rerender(<RemoteProviders><ReviewPanel datasetId="d1" recordId="rec2" fields={[]} questions={questions} /></RemoteProviders>);
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).includes('v1/records/rec2'))).toBe(true));
    const reads = vi.mocked(fetch).mock.calls.map(([url]) => String(url));
    expect(reads.filter((url) => url.includes('v1/datasets/d1')).length).toBe(1);
    expect(reads.filter((url) => url.includes('v1/workspaces/w1/users')).length).toBe(1);
  });
});
