import { expect, test, type Page } from '@playwright/test';
import { baseUrl, ownerApi, signInAs } from '../fixtures/api.js';
import { apiAs, createSettingsDataset, type SettingsDataset } from '../fixtures/settings-dataset.js';

const settingsUrl = (ds: SettingsDataset) => `${baseUrl()}/dataset/${ds.id}/settings`;

async function openSettingsAs(page: Page, user: { username: string; password: string }, ds: SettingsDataset) {
  await signInAs(page, user.username, user.password);
  await page.goto(settingsUrl(ds));
}

/** Every non-GET API request the page sends, to prove what was (not) sent. */
function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && request.method() !== 'GET') writes.push(`${request.method()} ${url.pathname}`);
  });
  return writes;
}

test('an admin edits every section; the API and the annotation view show the changes', async ({ page }) => {
  const ds = await createSettingsDataset();
  await openSettingsAs(page, ds.admin, ds);
  await expect(page.getByTestId('settings-full')).toBeVisible();
  await expect(page.getByTestId('settings-dataset-name')).toHaveText(ds.name);
  await expect(page.getByTestId('settings-workspace')).toHaveText(ds.workspaceName);

  // Dataset info: guidelines (Markdown preview), then the distribution.
  const guidelines = page.getByTestId('guidelines-form');
  await guidelines.getByLabel('Annotation guidelines', { exact: true }).fill('  # New rules\nLabel **every** review.  ');
  await guidelines.getByRole('tab', { name: 'Preview' }).click();
  await expect(page.getByTestId('guidelines-preview').locator('h1')).toHaveText('New rules');
  await guidelines.getByRole('button', { name: 'Save Annotation guidelines' }).click();
  await expect(guidelines.getByText(/^Saved at/)).toBeVisible();

  const distribution = page.getByTestId('distribution-form');
  await distribution.getByLabel('Minimum submitted responses per record').fill('2');
  await distribution.getByRole('button', { name: 'Save Task distribution' }).click();
  await expect(distribution.getByText(/^Saved at/)).toBeVisible();

  // Fields: title and Markdown toggle.
  const field = page.getByTestId('field-form-review');
  await field.getByLabel('Title').fill('Review text');
  await field.getByLabel('Use Markdown').check();
  await field.getByRole('button', { name: 'Save review' }).click();
  await expect(field.getByText(/^Saved at/)).toBeVisible();

  // Questions: title, description, an option's text, its order and the visible options.
  const question = page.getByTestId('question-form-sentiment');
  await question.getByLabel('Title').fill('Overall sentiment');
  await question.getByLabel('Description').fill('How does the reviewer feel?');
  await question.getByLabel('Text of option mixed').fill('Mixed feelings');
  await question.getByRole('button', { name: 'Move mixed up' }).click();
  await question.getByLabel('Visible options').fill('3');
  await question.getByRole('button', { name: 'Save sentiment' }).click();
  await expect(question.getByText(/^Saved at/)).toBeVisible();

  // Metadata property and vector.
  const metadata = page.getByTestId('metadata-form-genre');
  await metadata.getByLabel('Title').fill('Film genre');
  await metadata.getByLabel('Visible for annotators').uncheck();
  await metadata.getByRole('button', { name: 'Save genre' }).click();
  await expect(metadata.getByText(/^Saved at/)).toBeVisible();
  const vector = page.getByTestId('vector-form-emb');
  await vector.getByLabel('Title').fill('Sentence embedding');
  await vector.getByRole('button', { name: 'Save emb' }).click();
  await expect(vector.getByText(/^Saved at/)).toBeVisible();

  // Through the API.
  const dataset = await ownerApi<{ guidelines: string; distribution: { min_submitted: number } }>('GET', `datasets/${ds.id}`);
  expect(dataset.guidelines).toBe('# New rules\nLabel **every** review.');
  expect(dataset.distribution.min_submitted).toBe(2);
  const fields = await ownerApi<{ items: { title: string; settings: { use_markdown: boolean } }[] }>('GET', `datasets/${ds.id}/fields`);
  expect(fields.items[0]).toMatchObject({ title: 'Review text', settings: { use_markdown: true } });
  const questions = await ownerApi<{ items: { title: string; description: string; settings: { visible_options: number; options: { value: string; text: string }[] } }[] }>('GET', `datasets/${ds.id}/questions`);
  expect(questions.items[0]).toMatchObject({ title: 'Overall sentiment', description: 'How does the reviewer feel?', settings: { visible_options: 3 } });
  expect(questions.items[0].settings.options.map((o) => o.text)).toEqual(['positive', 'negative', 'Mixed feelings', 'neutral']);
  const properties = await ownerApi<{ items: { title: string; visible_for_annotators: boolean }[] }>('GET', `me/datasets/${ds.id}/metadata-properties`);
  expect(properties.items[0]).toMatchObject({ title: 'Film genre', visible_for_annotators: false });
  const vectors = await ownerApi<{ items: { title: string }[] }>('GET', `datasets/${ds.id}/vectors-settings`);
  expect(vectors.items[0].title).toBe('Sentence embedding');

  // The Python snippet targets this dataset, with a copy control.
  await expect(page.getByTestId('settings-python-snippet').locator('pre'))
    .toContainText(`client.datasets(name="${ds.name}", workspace="${ds.workspaceName}")`);

  // And in the annotation remote: the guidelines and the question title.
  await page.getByRole('link', { name: 'Open the annotation view' }).click();
  await expect(page).toHaveURL(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  await page.getByTestId('guidelines-toggle').click();
  const aside = page.getByRole('complementary', { name: 'Annotation guidelines' });
  await expect(aside.locator('h1')).toHaveText('New rules');
  await expect(aside.locator('strong')).toHaveText('every');
  await expect(page.getByTestId('question-sentiment').locator('legend')).toContainText('Overall sentiment');
});

test('an admin hides a non-required question: the API says so, annotators no longer see it, admins still do', async ({ page, browser }) => {
  const ds = await createSettingsDataset({ optionalQuestion: true });
  await openSettingsAs(page, ds.admin, ds);

  // A required question stays visible: its toggle is on and locked, with the reason.
  const sentiment = page.getByTestId('question-form-sentiment');
  await expect(sentiment.getByLabel('Visible for annotators')).toBeChecked();
  await expect(sentiment.getByLabel('Visible for annotators')).toBeDisabled();
  await expect(sentiment.getByText('Required questions are always visible for annotators.')).toBeVisible();

  const notes = page.getByTestId('question-form-notes');
  await notes.getByLabel('Visible for annotators').uncheck();
  await expect(notes.getByText('Modified')).toBeVisible();
  await notes.getByRole('button', { name: 'Save notes' }).click();
  await expect(notes.getByText(/^Saved at/)).toBeVisible();
  await expect(notes.getByLabel('Visible for annotators')).not.toBeChecked();

  const questions = await ownerApi<{ items: { name: string; visible_for_annotators: boolean }[] }>('GET', `datasets/${ds.id}/questions`);
  expect(questions.items.map((q) => [q.name, q.visible_for_annotators])).toEqual([['sentiment', true], ['notes', false]]);

  // The admin still answers both on the annotation page.
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  await expect(page.getByTestId('question-sentiment')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('question-notes')).toBeVisible();

  // The annotator, in a session of their own, gets only the visible question.
  const context = await browser.newContext();
  try {
    const annotatorPage = await context.newPage();
    await signInAs(annotatorPage, ds.annotator.username, ds.annotator.password);
    await annotatorPage.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
    await expect(annotatorPage.getByTestId('question-sentiment')).toBeVisible({ timeout: 15_000 });
    await expect(annotatorPage.getByTestId('question-notes')).toHaveCount(0);
    await expect(annotatorPage.getByText('Notes', { exact: true })).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('a failing save restores the section and shows the error toast', async ({ page }) => {
  const ds = await createSettingsDataset();
  await openSettingsAs(page, ds.admin, ds);
  await page.route('**/api/v1/questions/*', (route) => (route.request().method() === 'PATCH'
    ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: { code: 'argilla.api.errors::GenericServerError', params: {} } }) })
    : route.continue()));
  const question = page.getByTestId('question-form-sentiment');
  await question.getByLabel('Title').fill('Will not stick');
  await question.getByRole('button', { name: 'Save sentiment' }).click();
  await expect(question.getByLabel('Title')).toHaveValue('Sentiment');
  await expect(question.getByText('The changes were not saved; the section shows the stored values again.')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'An error occurred, please try again later' })).toBeVisible();
  const stored = await ownerApi<{ items: { title: string }[] }>('GET', `datasets/${ds.id}/questions`);
  expect(stored.items[0].title).toBe('Sentiment');

  // Invalid values are never sent: the message shows next to the input.
  const writes = recordWrites(page);
  await question.getByLabel('Title').fill('x'.repeat(201));
  await expect(question.getByText('This must be less than 200.')).toBeVisible();
  await question.getByRole('button', { name: 'Save sentiment' }).click();
  await page.getByTestId('guidelines-form').getByLabel('Annotation guidelines', { exact: true }).fill('   ');
  await expect(page.getByTestId('guidelines-form').getByText('This field is required.')).toBeVisible();
  await page.getByRole('button', { name: 'Save Annotation guidelines' }).click();
  await page.waitForTimeout(300);
  expect(writes).toEqual([]);
});

test('distribution cannot be changed once user responses exist', async ({ page }) => {
  const ds = await createSettingsDataset();
  const response = await apiAs(ds.annotator.api_key, 'POST', `records/${ds.recordIds[0]}/responses`, {
    status: 'submitted', values: { sentiment: { value: 'positive' } },
  });
  expect(response.status).toBe(201);
  await openSettingsAs(page, ds.admin, ds);
  const writes = recordWrites(page);
  const distribution = page.getByTestId('distribution-form');
  await distribution.getByLabel('Minimum submitted responses per record').fill('2');
  await distribution.getByRole('button', { name: 'Save Task distribution' }).click();
  const locked = "Distribution settings can't be modified for a dataset containing user responses";
  await expect(distribution.getByTestId('field-issue')).toHaveText(locked);
  await expect(page.getByRole('alert').filter({ hasText: locked })).toBeVisible();
  await expect(distribution.getByLabel('Minimum submitted responses per record')).toHaveValue('1');
  expect(writes).toEqual([]);
  const dataset = await ownerApi<{ distribution: { min_submitted: number } }>('GET', `datasets/${ds.id}`);
  expect(dataset.distribution.min_submitted).toBe(1);
});

test('an annotator gets the reduced view and the server refuses their writes', async ({ page }) => {
  const ds = await createSettingsDataset();
  await openSettingsAs(page, ds.annotator, ds);
  await expect(page.getByTestId('settings-reduced')).toBeVisible();
  await expect(page.getByTestId('settings-dataset-name')).toHaveText(ds.name);
  await expect(page.getByTestId('settings-guidelines')).toHaveText('Original guidelines');
  await expect(page.getByText('Only administrators and owners can change the settings of this dataset.')).toBeVisible();
  await expect(page.locator('.mfe-settings').getByRole('button')).toHaveCount(0);
  await expect(page.locator('.mfe-settings').getByRole('textbox')).toHaveCount(0);
  for (const heading of ['Edit fields', 'Edit questions', 'Danger zone', 'Export to the Hugging Face Hub']) {
    await expect(page.getByRole('heading', { name: heading })).toHaveCount(0);
  }

  // Sent by hand from the page with the annotator's own token: every write is refused.
  const statuses = await page.evaluate(async (ids) => {
    const token = localStorage.getItem('scholia.token');
    const send = async (method: string, path: string, body?: unknown) => (await fetch(`/api/v1/${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })).status;
    return {
      dataset: await send('PATCH', `datasets/${ids.id}`, { guidelines: 'hacked', distribution: { strategy: 'overlap', min_submitted: 3 } }),
      field: await send('PATCH', `fields/${ids.fieldId}`, { title: 'hacked', settings: { type: 'text', use_markdown: true } }),
      question: await send('PATCH', `questions/${ids.questionId}`, { title: 'hacked' }),
      metadata: await send('PATCH', `metadata-properties/${ids.metadataId}`, { title: 'hacked', visible_for_annotators: true }),
      vector: await send('PATCH', `vectors-settings/${ids.vectorId}`, { title: 'hacked' }),
      export: await send('POST', `datasets/${ids.id}/export`, { name: 'alice/x', token: 'hf_write_alice' }),
      delete: await send('DELETE', `datasets/${ids.id}`),
    };
  }, { id: ds.id, fieldId: ds.fieldId, questionId: ds.questionId, metadataId: ds.metadataId, vectorId: ds.vectorId });
  expect(statuses).toEqual({ dataset: 403, field: 403, question: 403, metadata: 403, vector: 403, export: 403, delete: 403 });
  const dataset = await ownerApi<{ guidelines: string }>('GET', `datasets/${ds.id}`);
  expect(dataset.guidelines).toBe('Original guidelines');
});

test('deleting a dataset needs its name typed and removes it from the home list', async ({ page }) => {
  const ds = await createSettingsDataset();
  await openSettingsAs(page, ds.admin, ds);
  const danger = page.locator('section', { has: page.getByRole('heading', { name: 'Danger zone' }) });
  await danger.getByRole('button', { name: 'Delete dataset' }).click();
  const confirm = danger.getByRole('button', { name: 'Delete this dataset' });
  await expect(confirm).toBeDisabled();
  await danger.getByLabel(`Type the name of the dataset (${ds.name}) to confirm`).fill(`${ds.name}x`);
  await expect(confirm).toBeDisabled();
  await danger.getByLabel(`Type the name of the dataset (${ds.name}) to confirm`).fill(ds.name);
  await confirm.click();
  await expect(page).toHaveURL(`${baseUrl()}/`);
  await expect(page.getByRole('status').filter({ hasText: `The dataset ${ds.name} was deleted.` })).toBeVisible();
  await expect(page.getByTestId('datasets-count')).toBeVisible();
  await expect(page.getByTestId('dataset-item').filter({ hasText: ds.name })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0); // no 404 toast from refetching the deleted dataset
  const gone = await apiAs('e2e.owner.apikey', 'GET', `datasets/${ds.id}`);
  expect(gone.status).toBe(404);
});
