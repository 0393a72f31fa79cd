import { expect, test, type Page } from '@playwright/test';
import { baseUrl, ownerApi, signInAs } from '../fixtures/api.js';
import { createAnnotationDataset, responseOf } from '../fixtures/annotation-dataset.js';

async function openBulk(page: Page, datasetId: string, query = '') {
  await page.goto(`${baseUrl()}/dataset/${datasetId}/annotation-mode?mode=bulk${query}`);
  await expect(page.getByTestId('bulk-record').first()).toBeVisible({ timeout: 15_000 });
}

test('bulk mode: page size, pagination with ← and →, record size toggle', async ({ page }) => {
  const ds = await createAnnotationDataset(12, { suggestions: false });
  await ownerApi('PUT', `records/${ds.recordIds[2]}/suggestions`, { question_id: ds.questions.entities!.id, value: [{ label: 'person', start: 0, end: 6 }], agent: 'ner' });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await openBulk(page, ds.id);

  await expect(page.getByTestId('bulk-record')).toHaveCount(10);
  // A span suggestion is shown on its field, and the field is not repeated above it.
  const third = page.getByTestId('bulk-record').nth(2);
  await expect(third.getByTestId('span-chip')).toHaveText(/PERSON: “Record”/);
  await expect(third.getByText('Record number 3 about dogs')).toHaveCount(1);
  await expect(page.getByTestId('bulk-record').nth(1).getByTestId('field-text')).toHaveCount(1);
  await expect(page.getByTestId('bulk-page')).toHaveText('Page 1 of 2');
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId('bulk-page')).toHaveText('Page 2 of 2');
  await expect(page.getByTestId('bulk-record')).toHaveCount(2);
  await page.keyboard.press('ArrowRight'); // the last page stays
  await expect(page.getByTestId('bulk-page')).toHaveText('Page 2 of 2');
  // A focused selection checkbox does not swallow the paging keys.
  await page.getByLabel('Select record 11').check();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('bulk-page')).toHaveText('Page 1 of 2');

  await page.getByTestId('page-size').selectOption('25');
  await expect(page).toHaveURL(/size=25/);
  await expect(page.getByTestId('bulk-record')).toHaveCount(12);
  await expect(page.getByTestId('bulk-page')).toHaveText('Page 1 of 1');

  // Records start collapsed to a fixed height; the toggle shows them whole, and back.
  const firstText = page.getByTestId('bulk-record').first().getByTestId('field-text');
  await expect(firstText).toHaveClass(/mfe-ann-field--collapsed/);
  await page.getByRole('button', { name: 'Expand records' }).click();
  await expect(firstText).not.toHaveClass(/mfe-ann-field--collapsed/);
  await page.getByRole('button', { name: 'Collapse records' }).click();
  await expect(firstText).toHaveClass(/mfe-ann-field--collapsed/);

  // The URL alone restores the bulk view.
  await page.reload();
  await expect(page.getByTestId('bulk-record')).toHaveCount(12, { timeout: 15_000 });
});

test('bulk mode: no selection is refused; select-all applies to every matched record after confirmation', async ({ page }) => {
  const ds = await createAnnotationDataset(12, { suggestions: false });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await openBulk(page, ds.id);
  const form = page.getByTestId('bulk-view').locator('aside');

  await form.getByRole('button', { name: 'NEUTRAL' }).click();
  await form.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page.getByText('No record selected')).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  await page.getByLabel('Select all records on this page').check();
  await expect(page.getByTestId('bulk-selected')).toHaveText('10 records selected');
  await page.getByRole('button', { name: 'Select all 12 matching records' }).click();
  await expect(page.getByTestId('bulk-selected')).toHaveText('12 records selected');
  await form.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Apply this answer to 12 records?');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('bulk-outcome')).toHaveText('12 records saved as draft');

  // Record 12 was never on screen: the select-all read the filter's records first.
  const last = await responseOf(ds.recordIds[11]!, ds.annotator.id);
  expect(last?.status).toBe('draft');
  expect(last?.values?.sentiment).toEqual({ value: 'neutral' });
  // The queue was reloaded: nothing pending is left.
  await expect(page.getByTestId('bulk-record')).toHaveCount(0);
});
