import { expect, test } from '@playwright/test';
import { addToWorkspace, baseUrl, createToken, createUser, OWNER, ownerApi, signInAs } from '../fixtures/api.js';
import { createAnnotationDataset } from '../fixtures/annotation-dataset.js';

/** Submits a response as `user` (signed in with their password). */
async function submitAs(user: { username: string; password: string }, recordId: string, sentiment: string): Promise<string> {
  const token = await createToken(user.username, user.password);
  const response = await fetch(`${baseUrl()}/api/v1/records/${recordId}/responses`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ status: 'submitted', values: { sentiment: { value: sentiment } } }),
  });
  const body = await response.text();
  expect(response.status, body).toBe(201);
  return (JSON.parse(body) as { id: string }).id;
}

/** Changes a submitted response as `user`. */
async function changeAs(user: { username: string; password: string }, responseId: string, sentiment: string) {
  const token = await createToken(user.username, user.password);
  const response = await fetch(`${baseUrl()}/api/v1/responses/${responseId}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ status: 'submitted', values: { sentiment: { value: sentiment } } }),
  });
  expect(response.status, await response.text()).toBe(200);
}

test('review mode: answers side by side, disagreement marked, validate an accepted answer, reopen; agreement in settings', async ({ page }) => {
  const ds = await createAnnotationDataset(2, { suggestions: false });
  const second = await createUser('annotator');
  const workspaceId = (await ownerApi<{ workspace_id: string }>('GET', `datasets/${ds.id}`)).workspace_id;
  await addToWorkspace(workspaceId, second.id);
  const [first] = ds.recordIds;
  // Three answers needed: after two the record is still pending, so it stays in the reviewer's pending queue.
  await ownerApi('PATCH', `datasets/${ds.id}`, { distribution: { strategy: 'overlap', min_submitted: 3 } });
  await submitAs(ds.annotator, first, 'positive');
  await submitAs(second, first, 'negative');

  await signInAs(page, OWNER.username, OWNER.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const panel = page.getByTestId('review-panel');
  await expect(panel).toBeVisible({ timeout: 15_000 });
  const sentiment = panel.getByTestId('review-question-sentiment');
  await expect(sentiment).toHaveAttribute('data-disagree', 'true');
  await expect(sentiment.getByTestId('review-disagreement')).toHaveText('Annotators disagree');

  await sentiment.getByRole('button', { name: 'negative' }).click();
  await expect(panel.getByTestId('review-final-sentiment')).toHaveText('Final answer: negative');
  await panel.getByRole('button', { name: 'Validate' }).click();
  await expect(panel.getByTestId('review-validated')).toHaveText('Validated');
  const validated = await ownerApi<{ validation?: { values: Record<string, { value: unknown }> } }>('GET', `records/${first}`);
  expect(validated.validation?.values.sentiment).toEqual({ value: 'negative' });

  await panel.getByRole('button', { name: 'Reopen' }).click();
  await expect(panel.getByTestId('review-validated')).toHaveCount(0);
  expect((await ownerApi<{ validation?: unknown }>('GET', `records/${first}`)).validation).toBeUndefined();

  await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
  const agreement = page.getByTestId('settings-agreement');
  await expect(agreement.getByRole('row', { name: /sentiment/ })).toContainText('0.0%', { timeout: 15_000 });
});

test('review view: completed records by status, annotators by username, an edited final answer validated, marked when an answer changes', async ({ page }) => {
  const ds = await createAnnotationDataset(2, { suggestions: false });
  const second = await createUser('annotator');
  const workspaceId = (await ownerApi<{ workspace_id: string }>('GET', `datasets/${ds.id}`)).workspace_id;
  await addToWorkspace(workspaceId, second.id);
  await ownerApi('PATCH', `datasets/${ds.id}`, { distribution: { strategy: 'overlap', min_submitted: 2 } });
  const [first] = ds.recordIds;
  const firstAnswer = await submitAs(ds.annotator, first, 'positive');
  await submitAs(second, first, 'negative');

  await signInAs(page, OWNER.username, OWNER.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  await page.getByRole('button', { name: 'Review', exact: true }).click();
  const view = page.getByTestId('review-view');
  await expect(view.getByTestId('review-record')).toHaveAttribute('data-record-id', first, { timeout: 15_000 });
  await expect(view.getByTestId('review-position')).toHaveText('Record 1 of 1');
  const panel = view.getByTestId('review-panel');
  await expect(panel.getByTestId('review-annotator').filter({ hasText: `by ${ds.annotator.username}` })).toHaveCount(1);
  await expect(panel.getByTestId('review-annotator').filter({ hasText: `by ${second.username}` })).toHaveCount(1);

  await panel.getByRole('button', { name: 'Edit final answer' }).click();
  await panel.getByTestId('review-editor').getByTestId('question-input-sentiment').getByRole('button', { name: /neutral/i }).click();
  await expect(panel.getByTestId('review-final-sentiment')).toHaveText('Final answer: neutral');
  await panel.getByRole('button', { name: 'Validate' }).click();
  await expect(panel.getByTestId('review-validated')).toHaveText('Validated');
  const validated = await ownerApi<{ validation?: { values: Record<string, { value: unknown }> } }>('GET', `records/${first}`);
  expect(validated.validation?.values.sentiment).toEqual({ value: 'neutral' });

  await changeAs(ds.annotator, firstAnswer, 'neutral');
  await page.reload();
  await page.getByTestId('review-status').selectOption('validated');
  await expect(view.getByTestId('review-record')).toHaveAttribute('data-record-id', first, { timeout: 15_000 });
  await expect(panel.getByTestId('review-stale')).toHaveText('Answers changed since validation');
  await page.getByTestId('review-status').selectOption('pending');
  await expect(view.getByTestId('review-record')).toHaveAttribute('data-record-id', ds.recordIds[1]);
});

test('review mode is not offered to annotators', async ({ page }) => {
  const ds = await createAnnotationDataset(1, { suggestions: false });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  await expect(page.getByTestId('focus-record')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('review-panel')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Review', exact: true })).toHaveCount(0);
});

test('review view: Validate moves on to the next record; Validate all agreeing validates the records whose answers agree', async ({ page }) => {
  const ds = await createAnnotationDataset(3, { suggestions: false });
  const second = await createUser('annotator');
  const workspaceId = (await ownerApi<{ workspace_id: string }>('GET', `datasets/${ds.id}`)).workspace_id;
  await addToWorkspace(workspaceId, second.id);
  await ownerApi('PATCH', `datasets/${ds.id}`, { distribution: { strategy: 'overlap', min_submitted: 2 } });
  const [agreeing, alsoAgreeing, disagreeing] = ds.recordIds as [string, string, string];
  for (const id of [agreeing, alsoAgreeing]) {
    await submitAs(ds.annotator, id, 'positive');
    await submitAs(second, id, 'positive');
  }
  await submitAs(ds.annotator, disagreeing, 'positive');
  await submitAs(second, disagreeing, 'negative');

  await signInAs(page, OWNER.username, OWNER.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode?mode=review`);
  const view = page.getByTestId('review-view');
  const shown = view.getByTestId('review-record');
  await expect(view.getByTestId('review-position')).toHaveText('Record 1 of 3', { timeout: 15_000 });
  const first = (await shown.getAttribute('data-record-id'))!;
  await view.getByTestId('review-panel').getByRole('button', { name: 'Validate', exact: true }).click();
  await expect(shown).not.toHaveAttribute('data-record-id', first);
  await expect(view.getByTestId('review-panel').getByTestId('review-validated')).toHaveCount(0);
  expect((await ownerApi<{ validation?: unknown }>('GET', `records/${first}`)).validation).toBeTruthy();

  await view.getByTestId('validate-agreeing').click();
  await expect(page.getByText(/records? with agreeing answers validated; 1 with disagreeing answers left to review\./)).toBeVisible();
  for (const id of [agreeing, alsoAgreeing]) expect((await ownerApi<{ validation?: unknown }>('GET', `records/${id}`)).validation).toBeTruthy();
  expect((await ownerApi<{ validation?: unknown }>('GET', `records/${disagreeing}`)).validation).toBeUndefined();
});
