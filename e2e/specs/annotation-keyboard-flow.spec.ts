import { expect, test } from '@playwright/test';
import { baseUrl, signInAs } from '../fixtures/api.js';
import { responseOf } from '../fixtures/annotation-dataset.js';
import { createKeyboardDataset, SENTIMENTS, TOPICS } from '../fixtures/keyboard-dataset.js';

const RECORDS = 20;

test('keyboard only: 20 records labelled with digits, Tab and Ctrl+Enter store exactly the keys pressed', async ({ page }) => {
  test.setTimeout(120_000);
  const ds = await createKeyboardDataset(RECORDS);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const record = page.getByTestId('focus-record');
  await expect(page.getByTestId('record-position')).toHaveText(`Record 1 of ${RECORDS}`, { timeout: 15_000 });

  const pressed = new Map<string, { sentiment: number; topic: number; rating: number }>();
  for (let i = 0; i < RECORDS; i += 1) {
    const id = await record.getAttribute('data-record-id');
    expect(id).toBeTruthy();
    expect(pressed.has(id!)).toBe(false);
    // The first question has focus as soon as the record shows: no Tab, no click.
    await expect(page.getByTestId('question-sentiment').locator(':focus')).toHaveCount(1);
    // Key 1 is the suggested sentiment (preselected): pressing it must keep it, not clear it.
    const keys = { sentiment: (i % 3) + 1, topic: (i % 4) + 1, rating: (i % 5) + 1 };
    await page.keyboard.press(String(keys.sentiment));
    await page.keyboard.press('Tab');
    await page.keyboard.press(String(keys.topic));
    await page.keyboard.press('Tab');
    await page.keyboard.press(String(keys.rating));
    // What is selected shows before the submit.
    await expect(page.getByTestId('question-input-sentiment').getByRole('button', { pressed: true })).toHaveAccessibleName(SENTIMENTS[keys.sentiment - 1]!);
    await page.keyboard.press('Control+Enter');
    pressed.set(id!, keys);
    if (i < RECORDS - 1) await expect(record).not.toHaveAttribute('data-record-id', id!);
  }
  await expect(page.getByTestId('empty-state')).toBeVisible();

  // Read back through the API: every stored answer is the key pressed, never the suggestion.
  for (const [id, keys] of pressed) {
    await expect.poll(async () => (await responseOf(id, ds.annotator.id))?.status).toBe('submitted');
    const values = (await responseOf(id, ds.annotator.id))!.values!;
    expect(values.sentiment?.value).toBe(SENTIMENTS[keys.sentiment - 1]);
    expect(values.topics?.value).toEqual([TOPICS[keys.topic - 1]]);
    expect(values.rating?.value).toBe(keys.rating);
  }
});

test('the record actions show and announce their keys', async ({ page }) => {
  const ds = await createKeyboardDataset(1);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const actions = page.getByTestId('record-actions');
  await expect(actions.getByRole('button', { name: 'Submit' })).toHaveAttribute('aria-keyshortcuts', 'Control+Enter', { timeout: 15_000 });
  await expect(actions.getByRole('button', { name: 'Submit' })).toContainText('Ctrl ↵');
  await expect(actions.getByRole('button', { name: 'Save as draft' })).toHaveAttribute('aria-keyshortcuts', 'Control+S');
  await expect(actions.getByRole('button', { name: 'Discard' })).toHaveAttribute('aria-keyshortcuts', 'Control+Backspace');
});

test('keyboard only: a draft and a discard keep focus on the next record\'s first unanswered question', async ({ page }) => {
  const ds = await createKeyboardDataset(3);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const record = page.getByTestId('focus-record');
  await expect(page.getByTestId('record-position')).toHaveText('Record 1 of 3', { timeout: 15_000 });
  const first = await record.getAttribute('data-record-id');
  await page.keyboard.press('2');
  await page.keyboard.press('Control+s');
  await expect(record).not.toHaveAttribute('data-record-id', first!);
  const second = await record.getAttribute('data-record-id');
  await expect(page.getByTestId('question-sentiment').locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Control+Backspace');
  await expect(record).not.toHaveAttribute('data-record-id', second!);
  await expect(page.getByTestId('question-sentiment').locator(':focus')).toHaveCount(1);
  await page.keyboard.press('3');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('empty-state')).toBeVisible();
  expect((await responseOf(first!, ds.annotator.id))).toMatchObject({ status: 'draft', values: { sentiment: { value: 'negative' } } });
  expect((await responseOf(second!, ds.annotator.id))?.status).toBe('discarded');
});
