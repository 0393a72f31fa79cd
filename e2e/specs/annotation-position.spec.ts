import { expect, test } from '@playwright/test';
import { baseUrl, signInAs } from '../fixtures/api.js';
import { createKeyboardDataset } from '../fixtures/keyboard-dataset.js';

test('after a reload the annotator is back on the record last shown, not past the pending records', async ({ page }) => {
  const ds = await createKeyboardDataset(10);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const record = page.getByTestId('focus-record');
  await expect(page.getByTestId('record-position')).toHaveText('Record 1 of 10', { timeout: 15_000 });
  const submitted: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const id = (await record.getAttribute('data-record-id'))!;
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(record).not.toHaveAttribute('data-record-id', id);
    submitted.push(id);
  }
  const shown = (await record.getAttribute('data-record-id'))!;
  expect(submitted).not.toContain(shown);

  await page.reload();
  await expect(record).toHaveAttribute('data-record-id', shown, { timeout: 15_000 });
  await expect(page.getByTestId('record-status')).toHaveText('Pending');
  // Counted among the 7 still pending, it is the first of them.
  await expect(page.getByTestId('record-position')).toHaveText('Record 1 of 7');
});
