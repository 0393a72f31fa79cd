import { expect, test, type Page } from '@playwright/test';
import { baseUrl, ownerApi, signInAs } from '../fixtures/api.js';
import { createAnnotationDataset, responseOf } from '../fixtures/annotation-dataset.js';
import { selectSpanText } from '../fixtures/span-selection.js';

async function open(page: Page, datasetId: string, query = '') {
  await page.goto(`${baseUrl()}/dataset/${datasetId}/annotation-mode${query}`);
  await expect(page.getByTestId('focus-record').or(page.getByTestId('empty-state')).or(page.getByTestId('bulk-view'))).toBeVisible({ timeout: 15_000 });
}

test('annotates all question and field types: submit, draft, discard, undo, clear, keyboard', async ({ page }) => {
  const ds = await createAnnotationDataset(4);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);

  // Fields: markdown sanitised, chat, image, custom template in a sandboxed frame.
  const record = page.getByTestId('focus-record');
  await expect(record.getByTestId('field-notes').locator('strong')).toHaveText('bold');
  await expect(record.getByTestId('field-chat')).toContainText('Hello there');
  await expect(record.getByTestId('field-image').locator('img')).toBeVisible();
  const frame = record.getByTestId('field-custom').locator('iframe');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(page.frameLocator('[data-testid="field-custom"] iframe').locator('b')).toHaveText('Card 1');
  await page.getByTestId('guidelines-toggle').click();
  await expect(page.getByTestId('guidelines-drawer')).toContainText('Label carefully');
  await page.getByTestId('guidelines-drawer').getByRole('button', { name: 'Close' }).click();

  // Suggestions with agent and score; a pending record starts from them.
  await expect(page.getByTestId('suggestion-sentiment')).toContainText('model-a');
  await expect(page.getByTestId('suggestion-sentiment')).toContainText('0.8');
  await expect(page.getByRole('button', { name: 'POSITIVE' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'SCIENCE' })).toHaveAttribute('aria-pressed', 'true');

  // Answer every type.
  await page.getByRole('button', { name: 'SPORTS' }).click();
  await page.getByLabel('Rank of FIRST').selectOption('2');
  await page.getByLabel('Rank of SECOND').selectOption('1');
  await page.getByTestId('question-input-rating').getByRole('button', { name: '4' }).click();
  await page.getByTestId('question-input-comment').fill('Looks *fine*');
  await page.getByRole('radio', { name: 'PLACE' }).click();
  await selectSpanText(page.getByTestId('span-text-entities'), 'London');
  await expect(page.getByTestId('span-chip')).toContainText('London');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 4/);

  const first = await responseOf(ds.recordIds[0]!, ds.annotator.id);
  expect(first?.status).toBe('submitted');
  expect(first?.values).toMatchObject({
    sentiment: { value: 'positive' },
    topics: { value: ['news', 'science', 'sports'] },
    ranking: { value: expect.arrayContaining([{ value: 'second', rank: 1 }, { value: 'first', rank: 2 }]) },
    rating: { value: 4 },
    comment: { value: 'Looks *fine*' },
    // Code points: the emoji counts once (UTF-16 would give 25..31).
    entities: { value: [{ label: 'place', start: 24, end: 30 }] },
  });

  // Record 2: the broken image, then keyboard only: option 2 of the first question, Ctrl+S draft.
  await expect(page.getByText('Could not load image')).toBeVisible();
  await page.getByTestId('question-input-sentiment').focus();
  await page.keyboard.press('2');
  await expect(page.getByRole('button', { name: 'NEGATIVE' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('record-position')).toHaveText(/Record 3 of 4/);
  expect((await responseOf(ds.recordIds[1]!, ds.annotator.id))?.status).toBe('draft');
  expect((await responseOf(ds.recordIds[1]!, ds.annotator.id))?.values?.sentiment).toEqual({ value: 'negative' });

  // Record 3: discard with the keyboard, then Ctrl+Z undoes it on the server.
  await page.locator('body').click({ position: { x: 1, y: 1 } });
  await page.keyboard.press('Control+Backspace');
  await expect(page.getByTestId('record-position')).toHaveText(/Record 4 of 4/);
  expect((await responseOf(ds.recordIds[2]!, ds.annotator.id))?.status).toBe('discarded');
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await responseOf(ds.recordIds[2]!, ds.annotator.id))?.status ?? 'none').toBe('none');

  // Previous with ←, and the submitted view lets Clear remove the response.
  await open(page, ds.id, '?status=submitted');
  await expect(page.getByTestId('record-status')).toHaveText('Submitted');
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByTestId('record-status')).toHaveText('Pending');
  await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id)) ?? 'none').toBe('none');

  // Metrics came back through the bus.
  await expect(page.getByTestId('metric-draft')).toContainText('1');

  // No script of a record ran: markdown, custom template.
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(errors).toEqual([]);
});

test('auto-saves a draft while typing without losing keystrokes', async ({ page }) => {
  const ds = await createAnnotationDataset(2, { suggestions: false });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  const box = page.getByTestId('question-input-comment');
  await box.pressSequentially('first part', { delay: 20 });
  await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.comment?.value, { timeout: 5000 }).toBe('first part');
  await box.pressSequentially(' and more', { delay: 20 });
  await expect(box).toHaveValue('first part and more');
  await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.comment?.value, { timeout: 5000 }).toBe('first part and more');
  expect((await responseOf(ds.recordIds[0]!, ds.annotator.id))?.status).toBe('draft');
});

test('leaving a record at once keeps its new answer as a draft; Previous shows it', async ({ page }) => {
  const ds = await createAnnotationDataset(3, { suggestions: false });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  // The required question is unanswered: no submit yet (spec §5).
  await expect(page.getByTestId('complete-required')).toHaveText('To submit complete required responses');
  await expect(page.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await page.getByRole('button', { name: 'NEGATIVE' }).click();
  await expect(page.getByTestId('complete-required')).toHaveCount(0);
  // Before the auto-draft delay has passed.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 3/);
  await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.status).toBe('draft');
  expect((await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.sentiment).toEqual({ value: 'negative' });
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('record-status')).toHaveText('Draft');
  await expect(page.getByRole('button', { name: 'NEGATIVE' })).toHaveAttribute('aria-pressed', 'true');
});

test("edits of a submitted record warn \"You didn't submit your changes\" once before leaving", async ({ page }) => {
  const ds = await createAnnotationDataset(2, { suggestions: false });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  await page.getByRole('button', { name: 'POSITIVE' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('record-status')).toHaveText('Submitted');

  await page.getByRole('button', { name: 'NEUTRAL' }).click();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText("You didn't submit your changes")).toBeVisible();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/);
  // Reset puts the stored answer back.
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByRole('button', { name: 'POSITIVE' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'NEUTRAL' }).click();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight'); // the second try leaves, the edit unsent
  await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
  expect((await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.sentiment).toEqual({ value: 'positive' });
});

test('ranking by pointer drag and drop ranks every option by its place', async ({ page }) => {
  const ds = await createAnnotationDataset(1, { suggestions: false });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  await page.getByTestId('question-input-ranking').scrollIntoViewIfNeeded();
  const from = (await page.getByLabel('Move SECOND').boundingBox())!;
  const to = (await page.getByLabel('Move FIRST').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  for (let step = 1; step <= 8; step += 1) {
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + ((to.y - from.y - 6) * step) / 8);
    await page.waitForTimeout(30);
  }
  await page.mouse.up();
  await expect(page.getByLabel('Rank of SECOND')).toHaveValue('1');
  await expect(page.getByLabel('Rank of FIRST')).toHaveValue('2');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.ranking)
    .toEqual({ value: [{ value: 'second', rank: 1 }, { value: 'first', rank: 2 }] });
});

/** Presses Tab until `selector` (CSS) has the focus, as a keyboard user would. */
async function tabTo(page: Page, selector: string) {
  for (let i = 0; i < 120; i += 1) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

test('keyboard only: options, ranking by drag keys, text, submit, draft, previous, undo', async ({ page }) => {
  const ds = await createAnnotationDataset(3, { suggestions: false });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);

  await tabTo(page, '[data-testid="question-input-sentiment"]');
  await page.keyboard.press('1');
  await tabTo(page, '[data-testid="question-input-topics"]');
  await page.keyboard.press('2');
  await tabTo(page, 'button[aria-label="Move FIRST"]');
  // dnd-kit measures the list between keys, as it would between a person's key presses.
  await page.keyboard.press('Space');
  await page.waitForTimeout(200);
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(300);
  await page.keyboard.press('Space');
  await expect(page.getByLabel('Rank of SECOND')).toHaveValue('1');
  await tabTo(page, '[data-testid="question-input-rating"]');
  await page.keyboard.press('3');
  await tabTo(page, '[data-testid="question-input-comment"]');
  await page.keyboard.type('by keys');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 3/);
  expect((await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values).toEqual({
    sentiment: { value: 'positive' },
    topics: { value: ['sports'] },
    ranking: { value: [{ value: 'second', rank: 1 }, { value: 'first', rank: 2 }] },
    rating: { value: 3 },
    comment: { value: 'by keys' },
  });

  // Record 2: a draft with Ctrl+S, then back with ← and submitted with another answer.
  await tabTo(page, '[data-testid="question-input-sentiment"]');
  await page.keyboard.press('2');
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('record-position')).toHaveText(/Record 3 of 3/);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('record-status')).toHaveText('Draft');
  await tabTo(page, '[data-testid="question-input-sentiment"]');
  await page.keyboard.press('3');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('record-position')).toHaveText(/Record 3 of 3/);
  expect((await responseOf(ds.recordIds[1]!, ds.annotator.id))?.status).toBe('submitted');

  // Ctrl+Z puts the draft back on the server, with its answer.
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await responseOf(ds.recordIds[1]!, ds.annotator.id))?.status).toBe('draft');
  expect((await responseOf(ds.recordIds[1]!, ds.annotator.id))?.values?.sentiment).toEqual({ value: 'negative' });
});

test('page changes replace the URL while it has no parameters, then push (spec §2)', async ({ page }) => {
  const ds = await createAnnotationDataset(4, { suggestions: false });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  const length = () => page.evaluate(() => history.length);
  const before = await length();
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/\?page=2$/);
  expect(await length()).toBe(before);
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/\?page=3$/);
  expect(await length()).toBe(before + 1);
  await page.goBack();
  await expect(page).toHaveURL(/\?page=2$/);
  await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 4/);
});

test('filters: status, text search, metadata, sort and the URL; empty states', async ({ page }) => {
  const ds = await createAnnotationDataset(4);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);

  await page.getByTestId('search-input').fill('cats');
  await page.getByTestId('search-input').press('Enter');
  await expect(page).toHaveURL(/q=cats/);
  await expect(page.getByTestId('record-position')).toHaveText(/of 2/);
  await expect(page.getByTestId('span-text-entities')).toContainText('cats');
  // A text search's relevance is no similarity: no percentage badge.
  await expect(page.getByTestId('query-score')).toHaveCount(0);
  // The field choice narrows the search: the notes never mention cats.
  await page.getByTestId('search-field').selectOption('notes');
  await expect(page).toHaveURL(/field=notes/);
  await expect(page.getByTestId('empty-state')).toHaveText('You have no pending records matching your query');
  await page.getByTestId('search-field').selectOption('text');
  await expect(page.getByTestId('record-position')).toHaveText(/of 2/);

  await page.getByTestId('search-input').fill('');
  await page.getByTestId('search-input').press('Enter');
  await page.getByText('Filters', { exact: false }).first().click();
  await page.getByTestId('filter-Language').getByLabel('de').click();
  await expect(page.getByTestId('filter-Language').getByLabel('de')).toBeChecked();
  await expect(page).toHaveURL(/filters=/);
  await expect(page.getByTestId('record-position')).toHaveText(/of 2/);

  // Range bounds come from the metrics call (the property was created with null min and max).
  const length = page.getByTestId('filter-Length');
  await expect(length.getByLabel('Min')).toHaveAttribute('placeholder', '10');
  await expect(length.getByLabel('Max')).toHaveAttribute('placeholder', '13');
  await length.getByLabel('Min').fill('12');
  await expect(page.getByTestId('record-position')).toHaveText(/of 1/);
  await length.getByLabel('Min').fill('');
  await expect(page.getByTestId('record-position')).toHaveText(/of 2/);

  await page.getByTestId('sort-by').selectOption('metadata:length');
  await page.getByRole('button', { name: 'Sort order: ascending' }).click();
  await expect(page.getByTestId('span-text-entities')).toContainText('Record number 4');

  // The URL alone restores the view.
  await page.reload();
  await expect(page.getByTestId('span-text-entities')).toContainText('Record number 4');

  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode?status=draft`);
  await expect(page.getByTestId('empty-state')).toHaveText('You have no draft records to review');
  await page.getByTestId('status-filter').selectOption('submitted');
  await expect(page.getByTestId('empty-state')).toHaveText('You have not submitted any record yet');
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode?status=discarded&q=zebra`);
  await expect(page.getByTestId('empty-state')).toHaveText('You have no discarded records matching your query');
});

test('bulk annotation of 25 records in chunks of 10, with one failure reported', async ({ page }) => {
  const ds = await createAnnotationDataset(25);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id, '?mode=bulk&size=25');
  await expect(page.getByTestId('bulk-record')).toHaveCount(25);
  await page.getByLabel('Select all records on this page').check();
  await expect(page.getByTestId('bulk-selected')).toHaveText('25 records selected');
  // One record disappears between listing and annotating: the server reports it per item.
  await ownerApi('DELETE', `datasets/${ds.id}/records?ids=${ds.recordIds[12]}`);
  const chunks: number[] = [];
  page.on('request', (r) => r.url().includes('/me/responses/bulk') && chunks.push((r.postDataJSON() as { items: unknown[] }).items.length));
  await page.getByTestId('bulk-view').getByRole('button', { name: 'NEUTRAL' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('bulk-outcome')).toContainText('24 records submitted');
  await expect(page.getByTestId('bulk-outcome')).toContainText(ds.recordIds[12]!);
  await expect(page.getByText('Some records failed to annotate')).toBeVisible();
  expect(chunks).toEqual([10, 10, 5]);
  const stored = await responseOf(ds.recordIds[24]!, ds.annotator.id);
  expect(stored?.status).toBe('submitted');
  expect(stored?.values?.sentiment).toEqual({ value: 'neutral' });
});

test('answers given offline are sent once when back online', async ({ page, context }) => {
  const ds = await createAnnotationDataset(3, { suggestions: false });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await open(page, ds.id);
  const bulkCalls: string[] = [];
  page.on('request', (r) => r.url().includes('/me/responses/bulk') && bulkCalls.push(r.postData() ?? ''));
  await context.setOffline(true);
  await page.getByRole('button', { name: 'POSITIVE' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 3/);
  expect(await responseOf(ds.recordIds[0]!, ds.annotator.id)).toBeUndefined();
  await context.setOffline(false);
  await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.status).toBe('submitted');
  await page.waitForTimeout(500);
  expect(bulkCalls).toHaveLength(1);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('scholia.annotation.outbox')))).toEqual([]);
});
