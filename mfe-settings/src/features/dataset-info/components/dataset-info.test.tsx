import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failWith, fakeApi, makeDataset } from '../../../test/fake-api.js';
import { renderRemote } from '../../../test/render.js';
import { DatasetInfo } from './dataset-info.js';

const WORKSPACE = { 'GET v1/workspaces/w1': { id: 'w1', name: 'team' } };
const NO_RESPONSES = { 'GET v1/datasets/d1/progress': { total: 3, completed: 0, pending: 3, users: [] } };

function guidelinesBox() {
  return screen.getByLabelText<HTMLTextAreaElement>('Annotation guidelines');
}

describe('Dataset info: guidelines', () => {
  afterEach(cleanup);

  it('refuses empty guidelines next to the input and sends nothing', async () => {
    const api = fakeApi({ ...WORKSPACE });
    renderRemote(<DatasetInfo dataset={makeDataset()} editable />);
    fireEvent.change(guidelinesBox(), { target: { value: '   ' } });
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save Annotation guidelines' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(api.writes()).toEqual([]);
  });

  it('sends trimmed guidelines, then keeps the server value as the new original', async () => {
    const api = fakeApi({ ...WORKSPACE, 'PATCH v1/datasets/d1': makeDataset({ guidelines: 'Be precise', updated_at: '2026-02-01T00:00:00' }) });
    renderRemote(<DatasetInfo dataset={makeDataset()} editable />);
    fireEvent.change(guidelinesBox(), { target: { value: '  Be precise \n' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Annotation guidelines' }));
    await screen.findByText(/^Saved at /);
    expect(api.writes()).toEqual([{ method: 'PATCH', path: 'v1/datasets/d1', body: { guidelines: 'Be precise' } }]);
    expect(guidelinesBox().value).toBe('Be precise');
    expect(screen.queryByRole('button', { name: 'Restore Annotation guidelines' })).toBeNull();
  });

  it('goes back to the stored original when the save fails, and the error toast shows', async () => {
    const api = fakeApi({ ...WORKSPACE, 'PATCH v1/datasets/d1': () => failWith(500, { detail: 'Database is down' }) });
    renderRemote(<DatasetInfo dataset={makeDataset()} editable />);
    fireEvent.change(guidelinesBox(), { target: { value: 'Something new' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Annotation guidelines' }));
    await waitFor(() => expect(guidelinesBox().value).toBe('Be **kind**'));
    expect(screen.getByText('The changes were not saved; the section shows the stored values again.')).toBeTruthy();
    expect(api.toasts.map((t) => t.message)).toContain('An error occurred, please try again later');
  });

  it('previews the Markdown, sanitized', async () => {
    fakeApi({ ...WORKSPACE });
    renderRemote(<DatasetInfo dataset={makeDataset({ guidelines: '# Rules\n<img src=x onerror="alert(1)">' })} editable />);
    fireEvent.click(screen.getByRole('tab', { name: 'Preview' }));
    const preview = await screen.findByTestId('guidelines-preview');
    expect(preview.querySelector('h1')?.textContent).toBe('Rules');
    expect(preview.innerHTML).not.toContain('onerror');
  });

  it('gives each code block of the preview a copy button, as the annotation guidelines have', async () => {
    fakeApi({ ...WORKSPACE });
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderRemote(<DatasetInfo dataset={makeDataset({ guidelines: 'Run:\n\n```bash\npip install argilla\n```' })} editable />);
    fireEvent.click(screen.getByRole('tab', { name: 'Preview' }));
    const preview = await screen.findByTestId('guidelines-preview');
    const copy = within(preview).getByRole('button', { name: 'Copy code' });
    fireEvent.click(copy);
    expect(writeText).toHaveBeenCalledWith('pip install argilla\n');
    expect(await within(preview).findByRole('button', { name: 'Copied' })).toBe(copy);
  });
});

describe('Dataset info: task distribution', () => {
  afterEach(cleanup);
  const minSubmitted = () => screen.getByLabelText<HTMLInputElement>('Minimum submitted responses per record');

  it('refuses a missing or zero minimum and sends nothing', async () => {
    const api = fakeApi({ ...WORKSPACE, ...NO_RESPONSES });
    renderRemote(<DatasetInfo dataset={makeDataset()} editable />);
    fireEvent.change(minSubmitted(), { target: { value: '0' } });
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save Task distribution' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(api.writes()).toEqual([]);
  });

  it('sends the new minimum when nobody responded yet', async () => {
    const api = fakeApi({ ...WORKSPACE, ...NO_RESPONSES, 'PATCH v1/datasets/d1': makeDataset({ distribution: { strategy: 'overlap', min_submitted: 2 } }) });
    renderRemote(<DatasetInfo dataset={makeDataset()} editable />);
    fireEvent.change(minSubmitted(), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Task distribution' }));
    await screen.findByText(/^Saved at /);
    expect(api.writes()).toEqual([{ method: 'PATCH', path: 'v1/datasets/d1', body: { distribution: { strategy: 'overlap', min_submitted: 2 } } }]);
  });

  it('refuses the change before sending when user responses exist', async () => {
    const api = fakeApi({ ...WORKSPACE, 'GET v1/datasets/d1/progress': { total: 3, completed: 1, pending: 2, users: [{ username: 'ana' }] } });
    renderRemote(<DatasetInfo dataset={makeDataset()} editable />);
    fireEvent.change(minSubmitted(), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Task distribution' }));
    const message = "Distribution settings can't be modified for a dataset containing user responses";
    expect(await screen.findByText(message, { selector: '[data-testid="field-issue"]' })).toBeTruthy();
    expect(minSubmitted().value).toBe('1');
    expect(api.writes()).toEqual([]);
    expect(api.toasts.map((t) => t.message)).toContain(message);
  });

  it("shows the server's business message when it refuses, and restores", async () => {
    fakeApi({
      ...WORKSPACE, ...NO_RESPONSES,
      'PATCH v1/datasets/d1': () => failWith(422, { code: 'update_distribution_with_existing_responses', message: 'no' }),
    });
    renderRemote(<DatasetInfo dataset={makeDataset()} editable />);
    fireEvent.change(minSubmitted(), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Task distribution' }));
    expect(await screen.findByText("Distribution settings can't be modified for a dataset containing user responses")).toBeTruthy();
    expect(minSubmitted().value).toBe('1');
  });
});

describe('Dataset info for annotators', () => {
  afterEach(cleanup);

  it('shows name, workspace and rendered guidelines, with nothing to edit', async () => {
    fakeApi({ ...WORKSPACE });
    renderRemote(<DatasetInfo dataset={makeDataset()} editable={false} />);
    expect(await screen.findByText('team')).toBeTruthy();
    expect(screen.getByTestId('settings-guidelines').querySelector('strong')?.textContent).toBe('kind');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('Dataset info: status', () => {
  afterEach(cleanup);

  it('names the dataset status in the interface language', async () => {
    fakeApi({ ...WORKSPACE });
    renderRemote(<DatasetInfo dataset={makeDataset()} editable />, 'de');
    await waitFor(() => expect(screen.getByTestId('settings-dataset-status').textContent).toBe('Bereit'));
  });
});
