import { expect, test, type Page } from '@playwright/test';
import { asyncBufferFromUrl, parquetReadObjects } from 'hyparquet';
import { baseUrl, OWNER, ownerApi, signInAs, unique } from '../fixtures/api.js';
import { FAKE_HUB_WRITE_TOKEN } from '../fixtures/fake-hub.js';

/** The fake hub global-setup started and pointed the server at. */
function fakeHubUrl(): string {
  const url = process.env.SCHOLIA_E2E_FAKE_HUB_URL;
  if (!url) throw new Error('SCHOLIA_E2E_FAKE_HUB_URL is not set: run through playwright.config.ts');
  return url;
}

interface SearchResult {
  items: { record: { id: string; external_id: string; fields: Record<string, unknown>; responses?: { status: string; values: unknown }[] } }[];
  total: number;
}

/** Export through the settings page's form, the way an admin does it. */
async function exportToFakeHub(page: Page, datasetId: string, repoName: string): Promise<void> {
  await page.goto(`${baseUrl()}/dataset/${datasetId}/settings`);
  const form = page.getByTestId('hub-export-form');
  await form.getByLabel('Organization or username').fill('alice');
  await form.getByLabel('Dataset name', { exact: true }).fill(repoName);
  await form.getByLabel('Hugging Face token').fill(FAKE_HUB_WRITE_TOKEN);
  await form.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `as alice/${repoName}.` })).toBeVisible({ timeout: 30_000 });
}

test.describe('hub round trip', () => {
  test.setTimeout(120_000);

  test('paste a repository id, configure, create, annotate, export and read the parquet back', async ({ page }) => {
    const datasetName = unique('sentiment');
    const workspaceName = unique('hubws');
    await signInAs(page, OWNER.username, OWNER.password);

    // Home → /:id
    await page.goto(`${baseUrl()}/`);
    await page.getByLabel('Repository id').fill('scholia/sentiment');
    await page.getByRole('button', { name: 'Import dataset' }).click();
    await expect(page).toHaveURL(`${baseUrl()}/scholia%2Fsentiment`);
    await expect(page.getByTestId('hub-repo-id')).toHaveText('scholia/sentiment');
    const columns = page.getByRole('table', { name: 'Columns' });
    await expect(columns.getByRole('rowheader', { name: 'label' })).toBeVisible();
    await expect(columns).toContainText('class label (negative, positive, neutral)');
    await expect(columns).toContainText('min 5 · max 24'); // n_words statistics from the viewer
    await page.getByLabel('Split').selectOption('test');
    await expect(page).toHaveURL(/subset=default&split=test/);
    await page.getByRole('button', { name: 'Configure the dataset' }).click();

    // /new/:id: the editor with its defaults
    await expect(page).toHaveURL(/\/new\/scholia%2Fsentiment\?subset=default&split=test/);
    await expect(page.getByRole('heading', { name: 'Configure your dataset' })).toBeVisible();
    await expect(page.getByLabel('Maps to text')).toHaveValue('field:text');
    await expect(page.getByLabel('Maps to n_words')).toHaveValue('metadata:integer');
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.locator('[data-question="label"] [data-suggested]')).toHaveCount(1);
    // Every question removed → spec §5 message, Create disabled; then the label question back.
    await page.getByRole('button', { name: 'Remove question label' }).click();
    await expect(page.getByText('At least one question is required.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create dataset' })).toBeDisabled();
    await page.getByLabel('Question type').selectOption('label_selection');
    await page.getByRole('button', { name: 'Add a question' }).click();
    const question = page.locator('fieldset[data-question="label"]');
    await question.getByLabel('Options (separated by commas)').fill('negative');
    await expect(question.getByText('At least two options are required')).toBeVisible();
    await expect(page.getByText('Some questions are invalid')).toBeVisible();
    await question.getByLabel('Options (separated by commas)').fill('negative, positive, neutral');
    await question.getByLabel('Suggestion from column').selectOption('label');
    await page.getByText('Log more records with Python').click();
    await expect(page.locator('.sch-code-block')).toContainText('"label": "label.suggestion"');

    await page.getByLabel('Dataset name').fill(datasetName);
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'New workspace…' });
    await page.getByLabel('Name of the new workspace').fill(workspaceName);
    await page.getByRole('button', { name: 'Create dataset' }).click();

    // Creation sequence → annotation page
    await expect(page).toHaveURL(/\/dataset\/[0-9a-f-]+\/annotation-mode/, { timeout: 45_000 });
    const datasetId = /\/dataset\/([0-9a-f-]+)\//.exec(page.url())![1];
    const dataset = await ownerApi<{ name: string; status: string; metadata: Record<string, unknown> }>('GET', `datasets/${datasetId}`);
    expect(dataset).toMatchObject({ name: datasetName, status: 'ready' });
    expect(dataset.metadata).toEqual({
      repoId: 'scholia/sentiment', subset: 'default', split: 'test', imported: 'UI',
      mapping: {
        fields: [{ source: 'text', target: 'text' }],
        metadata: [{ source: 'n_words', target: 'n_words' }, { source: 'score', target: 'score' }],
        suggestions: [{ source: 'label', target: 'label' }],
        external_id: 'id',
      },
    });
    const workspaces = await ownerApi<{ items: { name: string }[] }>('GET', 'me/workspaces');
    expect(workspaces.items.map((w) => w.name)).toContain(workspaceName);

    // Annotate the first imported record in the annotation page: pick a label the suggestion did not preselect, submit.
    await expect(page.getByTestId('focus-record')).toBeVisible();
    let choice = 'positive';
    for (const option of ['positive', 'negative', 'neutral']) {
      if ((await page.getByRole('button', { name: option, exact: true }).getAttribute('aria-pressed')) !== 'true') {
        choice = option;
        break;
      }
    }
    await page.getByRole('button', { name: choice, exact: true }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByTestId('record-position')).toHaveText(/^Record 2 of 60$/);
    const search = await ownerApi<SearchResult>('POST', `me/datasets/${datasetId}/records/search?include=responses&limit=100`, {});
    expect(search.total).toBe(60);
    const answered = search.items.filter((i) => (i.record.responses ?? []).length > 0);
    expect(answered).toHaveLength(1);
    const record = answered[0].record;
    expect(record.responses![0]).toMatchObject({ status: 'submitted', values: { label: { value: choice } } });

    // Export to the fake hub and read the parquet back from what it recorded.
    const repoName = unique('export').toLowerCase();
    await exportToFakeHub(page, datasetId, repoName);
    const tree = await (await fetch(`${fakeHubUrl()}/api/datasets/alice/${repoName}/tree/main?recursive=true`)).json() as { path: string; size: number }[];
    const paths = tree.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['README.md', '.argilla/settings.json', '.argilla/dataset.json']));
    const parquetPath = paths.find((p) => p.endsWith('.parquet'))!;
    expect(parquetPath).toMatch(/^data\/train-/);
    const file = await asyncBufferFromUrl({ url: `${fakeHubUrl()}/datasets/alice/${repoName}/resolve/main/${parquetPath}` });
    const rows = await parquetReadObjects({ file });
    expect(rows).toHaveLength(60);
    const exported = rows.find((r) => r.id === record.external_id)!;
    expect(exported.text).toBe(record.fields.text);
    expect(exported['label.responses']).toEqual([choice]);
    expect(exported['label.responses.status']).toEqual(['submitted']);
    expect(exported.status).toBe('completed');
    expect(rows.filter((r) => r['label.suggestion'] !== null && r['label.suggestion'] !== undefined).length).toBeGreaterThan(40);
    const settings = JSON.parse(await (await fetch(`${fakeHubUrl()}/datasets/alice/${repoName}/resolve/main/.argilla/settings.json`)).text()) as {
      questions: { name: string }[]; fields: { name: string }[];
    };
    expect(settings.fields.map((f) => f.name)).toEqual(['text']);
    expect(settings.questions.map((q) => q.name)).toEqual(['label']);
  });

  test('an unknown repository says so', async ({ page }) => {
    await signInAs(page, OWNER.username, OWNER.password);
    await page.goto(`${baseUrl()}/${encodeURIComponent('nobody/nothing-here')}`);
    await expect(page.getByRole('alert')).toHaveText('Dataset not found or available on Hugging Face');
  });
});
