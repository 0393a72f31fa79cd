import { expect, test, type Locator, type Page } from '@playwright/test';
import { baseUrl, signInAs } from '../fixtures/api.js';
import { createKeyboardDataset } from '../fixtures/keyboard-dataset.js';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxes(locator: Locator): Promise<Box[]> {
  const all: Box[] = [];
  for (const element of await locator.all()) {
    const box = await element.boundingBox();
    if (box) all.push(box);
  }
  return all;
}

/** Every shown toast lies clear of every action button of the record. */
async function expectActionsUncovered(page: Page) {
  const toasts = await boxes(page.locator('.sch-toast'));
  expect(toasts.length).toBeGreaterThan(0);
  const actions = await boxes(page.getByTestId('questions-panel').getByRole('button'));
  expect(actions.length).toBeGreaterThan(2);
  for (const toast of toasts) for (const action of actions) expect(overlaps(toast, action), JSON.stringify({ toast, action })).toBe(false);
}

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`toasts never cover the record's actions at ${size.width}×${size.height}`, async ({ page, context }) => {
    await page.setViewportSize(size);
    const ds = await createKeyboardDataset(3);
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
    const record = page.getByTestId('focus-record');
    await expect(page.getByTestId('record-position')).toHaveText('Record 1 of 3', { timeout: 15_000 });
    const first = (await record.getAttribute('data-record-id'))!;
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(record).not.toHaveAttribute('data-record-id', first);

    await page.keyboard.press('Control+z');
    await expect(page.getByText('The last answer was undone.')).toBeVisible();
    await context.setOffline(true);
    await expect(page.getByText('You are offline')).toBeVisible();
    await expectActionsUncovered(page);
    await context.setOffline(false);
  });
}

test('a toast leaves after its time while the pointer rests on it', async ({ page }) => {
  const ds = await createKeyboardDataset(2);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const record = page.getByTestId('focus-record');
  await expect(page.getByTestId('record-position')).toHaveText('Record 1 of 2', { timeout: 15_000 });
  const first = (await record.getAttribute('data-record-id'))!;
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(record).not.toHaveAttribute('data-record-id', first);
  await page.keyboard.press('Control+z');
  const toast = page.locator('.sch-toast', { hasText: 'The last answer was undone.' });
  await expect(toast).toBeVisible();
  await toast.locator('.sch-toast__message').hover();
  // About 7 s for a short message; the pointer stays on the toast all along.
  await expect(toast).toHaveCount(0, { timeout: 15_000 });
});
