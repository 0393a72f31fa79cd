import { expect, test, type Locator } from '@playwright/test';
import { baseUrl, ownerApi, signInAs } from '../fixtures/api.js';
import { createAnnotationDataset } from '../fixtures/annotation-dataset.js';
import { ARABIC, createRtlDataset } from '../fixtures/rtl-dataset.js';
import { createKeyboardDataset } from '../fixtures/keyboard-dataset.js';
import { selectSpanText } from '../fixtures/span-selection.js';

const readsRightToLeft = (locator: Locator) => locator.evaluate((el) => el.matches(':dir(rtl)'));

test('the record pane holds every field, a span question\'s text included, and the metadata under a closed disclosure; the span\'s labels are in the questions panel', async ({ page }) => {
  const ds = await createAnnotationDataset(2);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const pane = page.getByTestId('record-pane');
  const panel = page.getByTestId('questions-panel');
  await expect(pane.getByTestId('span-text-entities')).toHaveText('Ada 💖 Lovelace lived in London', { timeout: 15_000 });
  await expect(panel.getByTestId('span-text-entities')).toHaveCount(0);
  await expect(panel.getByRole('radiogroup', { name: 'Q entities' })).toBeVisible();
  // The text is where the record's fields are, in their order: between NOTES before it and IMAGE after.
  const titles = await pane.locator('.mfe-ann-field__title').allTextContents();
  expect(titles.slice(0, 3)).toEqual(['TEXT', 'NOTES', 'IMAGE']);

  // The label chosen in the panel, the text selected in the pane: one span, listed in the panel.
  await panel.getByRole('radio', { name: 'PLACE' }).click();
  await selectSpanText(pane.getByTestId('span-text-entities'), 'London');
  await expect(panel.getByTestId('span-chip')).toHaveText(/PLACE: “London”/);

  // The metadata waits closed under its own heading, below the fields.
  const metadata = pane.getByTestId('record-metadata');
  await expect(metadata).not.toHaveAttribute('open');
  await expect(metadata.getByText('en', { exact: true })).toBeHidden();
  await metadata.getByText('Metadata').click();
  await expect(metadata.getByText('en', { exact: true })).toBeVisible();
});

test('right-to-left records read right to left in focus, span and bulk views', async ({ page }) => {
  const ds = await createRtlDataset();
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const pane = page.getByTestId('record-pane');
  const spanText = page.getByTestId('span-text-entities');
  await expect(spanText).toHaveText(ARABIC, { timeout: 15_000 });
  expect(await readsRightToLeft(spanText)).toBe(true);
  const note = pane.getByTestId('field-note').locator('p').first();
  await expect(note).toContainText('שלום');
  expect(await readsRightToLeft(note)).toBe(true);
  // The page itself stays left to right.
  expect(await readsRightToLeft(page.getByTestId('record-position'))).toBe(false);

  await page.getByRole('button', { name: 'Bulk' }).click();
  const records = page.getByTestId('bulk-record');
  await expect(records).toHaveCount(2);
  for (const record of await records.all()) {
    const text = record.locator('.mfe-ann-text', { hasText: 'مرحبا' });
    await expect(text).toBeVisible();
    expect(await readsRightToLeft(text)).toBe(true);
  }
});

test('the words of a text search are marked in the record\'s text', async ({ page }) => {
  const ds = await createKeyboardDataset(3);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode?q=${encodeURIComponent('record -nothing')}`);
  await expect(page.getByTestId('field-text')).toContainText('Keyboard record', { timeout: 15_000 });
  const marked = () => page.evaluate(() => {
    const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('mfe-ann-search');
    return highlight ? [...highlight].map((range) => range.toString()) : [];
  });
  await expect.poll(marked).toEqual(['record']);
});

const markedWords = (page: import('@playwright/test').Page) => page.evaluate(() => {
  const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('mfe-ann-search');
  return highlight ? [...highlight].map((range) => `${range.startContainer.parentElement?.closest('[data-testid^="field-"]')?.getAttribute('data-testid')}:${range.toString()}`).sort() : [];
});

test('the words of a text search are marked in a span question\'s text, whose selections keep their offsets, and in the bulk view', async ({ page }) => {
  const ds = await createAnnotationDataset(2);
  // The second record's text has a span suggestion, so the bulk view paints it as a span text.
  await ownerApi('PUT', `records/${ds.recordIds[1]}/suggestions`, { question_id: ds.questions.entities.id, value: [{ start: 0, end: 6, label: 'person' }], type: 'model' });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode?q=${encodeURIComponent('London | cats')}`);
  const pane = page.getByTestId('record-pane');
  const spanText = pane.getByTestId('span-text-entities');
  await expect(spanText).toHaveText('Ada 💖 Lovelace lived in London', { timeout: 15_000 });
  await expect.poll(() => markedWords(page)).toEqual(['field-text:London']);

  await page.getByRole('button', { name: 'Bulk' }).click();
  await expect(page.getByTestId('bulk-record')).toHaveCount(2);
  await expect(page.getByTestId('bulk-record').nth(1).getByTestId('span-text-entities')).toBeVisible();
  await expect.poll(() => markedWords(page)).toEqual(['field-text:London', 'field-text:cats']);

  // Selecting the marked word makes a span of exactly it, after the two-unit emoji before it.
  await page.getByRole('button', { name: 'Focus' }).click();
  await expect(spanText).toBeVisible();
  await page.getByTestId('questions-panel').getByRole('radio', { name: 'PLACE' }).click();
  await selectSpanText(spanText, 'London');
  await expect(page.getByTestId('span-chip')).toHaveText(/PLACE: “London”/);
  await expect.poll(() => markedWords(page)).toEqual(['field-text:London']);
});
