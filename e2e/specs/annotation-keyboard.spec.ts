import { expect, test } from '@playwright/test';
import { baseUrl, signInAs } from '../fixtures/api.js';
import { createAnnotationDataset } from '../fixtures/annotation-dataset.js';

test('keyboard: the arrows stay in a span question, ? lists the shortcuts, Ctrl+Z goes back to the undone record, typing keeps its keys', async ({ page }) => {
  const ds = await createAnnotationDataset(3);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const position = page.getByTestId('record-position');
  await expect(position).toHaveText('Record 1 of 3', { timeout: 15_000 });

  // The span question's labels are a radio group: ArrowRight picks the next label, not the next record.
  const labels = page.getByTestId('question-input-entities').getByRole('radiogroup');
  await labels.getByRole('radio', { name: /PERSON/ }).click();
  await page.keyboard.press('ArrowRight');
  await expect(labels.getByRole('radio', { name: /PLACE/ })).toHaveAttribute('aria-checked', 'true');
  await expect(position).toHaveText('Record 1 of 3');

  await page.getByTestId('record-position').click();
  await page.keyboard.press('Shift+?');
  const list = page.getByTestId('shortcut-list');
  await expect(list).toBeVisible();
  await expect(list).toContainText('Ctrl+Z');
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);

  // Submit record 1 (its suggestion answers the required question), then undo from record 2.
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(position).toHaveText('Record 2 of 3');
  await page.getByTestId('record-position').click();
  await page.keyboard.press('Control+z');
  await expect(position).toHaveText('Record 1 of 3');
  await expect(page.getByTestId('focus-record')).toHaveAttribute('data-record-id', ds.recordIds[0]!);
  await expect(page.getByTestId('record-status')).toHaveText('Pending');

  // Typed into an answer, the arrows and ? are the answer's.
  const comment = page.getByTestId('question-input-comment');
  await comment.fill('x');
  await comment.press('ArrowRight');
  await comment.press('Shift+?');
  await expect(comment).toHaveValue('x?');
  await expect(page.getByTestId('shortcut-list')).toHaveCount(0);
  await expect(position).toHaveText('Record 1 of 3');
});
