import { expect, test, type Page } from '@playwright/test';
import { addToWorkspace, baseUrl, createDataset, createUser, createWorkspace, ownerApi, signInAs, unique, type CreatedUser } from '../fixtures/api.js';

interface FilterDataset {
  id: string;
  annotator: CreatedUser;
  /** Record ids by their text. */
  records: Record<string, string>;
}

/**
 * Four records with a 2-d vector each (cosine from alpha: beta 0.98, gamma 0, delta -1, so the
 * query scores are 99.0%, 50.0% and 0.0%) and one suggestion each for the label question.
 */
async function createFilterDataset(): Promise<FilterDataset> {
  const ws = await createWorkspace();
  const dataset = await createDataset(unique('filters'), ws.id);
  await ownerApi('POST', `datasets/${dataset.id}/fields`, { name: 'text', title: 'Text', required: true, settings: { type: 'text', use_markdown: false } });
  const sentiment = await ownerApi<{ id: string }>('POST', `datasets/${dataset.id}/questions`, {
    name: 'sentiment', title: 'Q sentiment', required: true,
    settings: { type: 'label_selection', options: ['positive', 'negative', 'neutral'].map((value) => ({ value, text: value.toUpperCase() })) },
  });
  await ownerApi('POST', `datasets/${dataset.id}/vectors-settings`, { name: 'emb', title: 'Embedding', dimensions: 2 });
  await ownerApi('PUT', `datasets/${dataset.id}/publish`);
  const rows = [
    { text: 'alpha', vector: [1, 0], value: 'positive', agent: 'model-a', score: 0.9 },
    { text: 'beta', vector: [1, 0.2], value: 'negative', agent: 'model-b', score: 0.3 },
    { text: 'gamma', vector: [0, 1], value: 'positive', agent: 'model-b', score: 0.6 },
    { text: 'delta', vector: [-1, 0], value: 'neutral', agent: 'model-a', score: 0.1 },
  ];
  const created = await ownerApi<{ items: { id: string }[] }>('POST', `datasets/${dataset.id}/records/bulk`, {
    items: rows.map((r) => ({
      fields: { text: r.text },
      vectors: { emb: r.vector },
      suggestions: [{ question_id: sentiment.id, value: r.value, agent: r.agent, score: r.score, type: 'model' }],
    })),
  });
  const annotator = await createUser('annotator');
  await addToWorkspace(ws.id, annotator.id);
  return { id: dataset.id, annotator, records: Object.fromEntries(rows.map((r, i) => [r.text, created.items[i]!.id])) };
}

/** A response given through the API by the annotator (as the SDK would). */
async function respond(annotator: CreatedUser, recordId: string, status: 'submitted' | 'discarded', value?: string) {
  const response = await fetch(`${baseUrl()}/api/v1/records/${recordId}/responses`, {
    method: 'POST',
    headers: { 'X-Argilla-Api-Key': annotator.api_key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ status, values: value ? { sentiment: { value } } : null }),
  });
  if (!response.ok) throw new Error(`response → ${response.status} ${await response.text()}`);
}

async function open(page: Page, datasetId: string) {
  await page.goto(`${baseUrl()}/dataset/${datasetId}/annotation-mode`);
  await expect(page.getByTestId('focus-record').or(page.getByTestId('empty-state'))).toBeVisible({ timeout: 15_000 });
}

const shown = (page: Page) => page.getByTestId('focus-record').getByTestId('field-text');

async function openFilters(page: Page) {
  const more = page.locator('details.mfe-ann-filters__more');
  if (!(await more.evaluate((el) => (el as HTMLDetailsElement).open))) await more.locator('summary').click();
}

test('similarity: find similar from a record, most and least similar, score as a percentage', async ({ page }) => {
  const ds = await createFilterDataset();
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  await expect(shown(page)).toHaveText(/alpha/);
  await expect(page.getByTestId('query-score')).toHaveCount(0);

  await page.getByRole('button', { name: 'Find similar' }).click();
  await expect(page).toHaveURL(/similar=/);
  await expect(page.getByTestId('similarity-bar')).toContainText('Records similar to “alpha”');
  // The record itself is left out; the rest come by decreasing cosine.
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 3/);
  await expect(shown(page)).toHaveText(/beta/);
  await expect(page.getByTestId('query-score')).toHaveText('Similarity 99.0%');
  await page.getByRole('button', { name: /Next/ }).click();
  await expect(shown(page)).toHaveText(/gamma/);
  await expect(page.getByTestId('query-score')).toHaveText('Similarity 50.0%');
  await page.keyboard.press('ArrowRight');
  await expect(shown(page)).toHaveText(/delta/);
  await expect(page.getByTestId('query-score')).toHaveText('Similarity 0.0%');

  await page.getByTestId('similarity-bar').getByLabel('Most similar').selectOption('least_similar');
  await expect(page).toHaveURL(/least_similar/);
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 3/);
  await expect(shown(page)).toHaveText(/delta/);
  // Least similar searches with the opposite vector (as Argilla does): its score is shown as given.
  await expect(page.getByTestId('query-score')).toHaveText('Similarity 100.0%');
  await page.keyboard.press('ArrowRight');
  await expect(shown(page)).toHaveText(/gamma/);
  await expect(page.getByTestId('query-score')).toHaveText('Similarity 50.0%');

  // The URL alone restores the similarity view; clearing it returns to the plain queue.
  await page.reload();
  await expect(shown(page)).toHaveText(/gamma/, { timeout: 15_000 });
  await expect(page.getByTestId('similarity-bar').getByLabel('Most similar')).toHaveValue('least_similar');
  await page.getByRole('button', { name: 'Clear similarity' }).click();
  await expect(page).not.toHaveURL(/similar=/);
  await expect(shown(page)).toHaveText(/alpha/);
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 4/);
  await expect(page.getByTestId('query-score')).toHaveCount(0);
});

test('response filters: by status and by the value answered', async ({ page }) => {
  const ds = await createFilterDataset();
  await respond(ds.annotator, ds.records.alpha!, 'submitted', 'negative');
  await respond(ds.annotator, ds.records.beta!, 'submitted', 'positive');
  await respond(ds.annotator, ds.records.gamma!, 'discarded');
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/);
  await expect(shown(page)).toHaveText(/delta/);

  await page.getByTestId('status-filter').selectOption('submitted');
  await expect(page).toHaveURL(/status=submitted/);
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/);
  await expect(page.getByTestId('record-status')).toHaveText('Submitted');

  await openFilters(page);
  await page.getByTestId('filter-Q sentiment').getByLabel('NEGATIVE').check();
  await expect(page).toHaveURL(/filters=/);
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/);
  await expect(shown(page)).toHaveText(/alpha/);
  await expect(page.getByRole('button', { name: 'NEGATIVE' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('filter-Q sentiment').getByLabel('POSITIVE').check();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/);

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByTestId('status-filter').selectOption('discarded');
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/);
  await expect(shown(page)).toHaveText(/gamma/);
  await expect(page.getByTestId('record-status')).toHaveText('Discarded');
});

test('suggestion filters: value, score range and agent; suggestions show agent and score', async ({ page }) => {
  const ds = await createFilterDataset();
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 4/);
  await expect(page.getByTestId('suggestion-sentiment')).toContainText('model-a');
  await expect(page.getByTestId('suggestion-sentiment')).toContainText('0.9');

  await openFilters(page);
  await page.getByTestId('filter-Q sentiment · Value').getByLabel('POSITIVE').check();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/);
  await expect(shown(page)).toHaveText(/alpha/);

  await page.getByTestId('filter-Q sentiment · Agent').getByLabel('model-b').check();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/);
  await expect(shown(page)).toHaveText(/gamma/);
  await expect(page.getByTestId('suggestion-sentiment')).toContainText('model-b');

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 4/);
  await openFilters(page);
  const score = page.getByTestId('filter-Q sentiment · Score');
  await score.getByLabel('Min').fill('0.5');
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/);
  await score.getByLabel('Max').fill('0.8');
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/);
  await expect(shown(page)).toHaveText(/gamma/);

  // The URL alone restores the filters.
  await page.reload();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/, { timeout: 15_000 });
  await expect(shown(page)).toHaveText(/gamma/);
});

test('sort by suggestion score and by insertion, both orders', async ({ page }) => {
  const ds = await createFilterDataset();
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  await expect(shown(page)).toHaveText(/alpha/);

  await page.getByTestId('sort-by').selectOption('suggestion-score:sentiment');
  await expect(page).toHaveURL(/sort=/);
  await expect(shown(page)).toHaveText(/delta/); // 0.1 first
  await page.keyboard.press('ArrowRight');
  await expect(shown(page)).toHaveText(/beta/); // 0.3
  await page.getByRole('button', { name: 'Sort order: ascending' }).click();
  await expect(page.getByRole('button', { name: 'Sort order: descending' })).toBeVisible();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 4/);
  await expect(shown(page)).toHaveText(/alpha/); // 0.9 first
  await page.keyboard.press('ArrowRight');
  await expect(shown(page)).toHaveText(/gamma/); // 0.6

  await page.getByTestId('sort-by').selectOption('inserted_at');
  await expect(shown(page)).toHaveText(/delta/); // the order stays descending
  await page.getByRole('button', { name: 'Sort order: descending' }).click();
  await expect(shown(page)).toHaveText(/alpha/);
  await page.getByTestId('sort-by').selectOption('');
  await expect(page).not.toHaveURL(/sort=/);
});
