import { expect, test, type Page } from '@playwright/test';
import { addToWorkspace, baseUrl, createDataset, createUser, createWorkspace, OWNER, ownerApi, signInAs, unique, type CreatedUser } from '../fixtures/api.js';

/** A published dataset with one label question and `count` records, and an annotator. */
async function createSmallDataset(count: number) {
  const ws = await createWorkspace();
  const dataset = await createDataset(unique('empty'), ws.id);
  await ownerApi('POST', `datasets/${dataset.id}/fields`, { name: 'text', title: 'Text', required: true, settings: { type: 'text', use_markdown: false } });
  await ownerApi('POST', `datasets/${dataset.id}/questions`, {
    name: 'sentiment', title: 'Sentiment', required: true,
    settings: { type: 'label_selection', options: [{ value: 'yes', text: 'Yes' }, { value: 'no', text: 'No' }] },
  });
  await ownerApi('PUT', `datasets/${dataset.id}/publish`);
  let recordIds: string[] = [];
  if (count > 0) {
    const items = Array.from({ length: count }, (_, i) => ({ fields: { text: `record ${i + 1}` } }));
    recordIds = (await ownerApi<{ items: { id: string }[] }>('POST', `datasets/${dataset.id}/records/bulk`, { items })).items.map((r) => r.id);
  }
  const annotator = await createUser('annotator');
  await addToWorkspace(ws.id, annotator.id);
  return { id: dataset.id, annotator, recordIds };
}

/** The annotator answers through the API (as the SDK would); a second answer updates the first. */
async function respond(annotator: CreatedUser, recordId: string, status: 'submitted' | 'discarded') {
  const headers = { 'X-Argilla-Api-Key': annotator.api_key, 'Content-Type': 'application/json' };
  const body = JSON.stringify({ status, values: status === 'submitted' ? { sentiment: { value: 'yes' } } : null });
  const record = await (await fetch(`${baseUrl()}/api/v1/records/${recordId}?include=responses`, { headers })).json() as { responses?: { id: string; user_id: string }[] };
  const existing = record.responses?.find((r) => r.user_id === annotator.id);
  const response = existing
    ? await fetch(`${baseUrl()}/api/v1/responses/${existing.id}`, { method: 'PUT', headers, body })
    : await fetch(`${baseUrl()}/api/v1/records/${recordId}/responses`, { method: 'POST', headers, body });
  if (!response.ok) throw new Error(`response → ${response.status} ${await response.text()}`);
}

async function emptyState(page: Page, datasetId: string, query = '') {
  await page.goto(`${baseUrl()}/dataset/${datasetId}/annotation-mode${query}`);
  return page.getByTestId('empty-state');
}

test('a dataset with no records tells the annotator and the owner what to do (spec §8)', async ({ page }) => {
  const ds = await createSmallDataset(0);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await expect(await emptyState(page, ds.id)).toHaveText('This dataset has no records yet. Ask an administrator to upload records.', { timeout: 15_000 });
  await signInAs(page, OWNER.username, OWNER.password);
  await expect(await emptyState(page, ds.id)).toHaveText('This dataset has no records yet. Add records with the Python SDK.', { timeout: 15_000 });
});

test('empty states per status: none discarded, none pending, task completed (spec §8)', async ({ page }) => {
  const ds = await createSmallDataset(2);
  await respond(ds.annotator, ds.recordIds[0]!, 'submitted');
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await expect(await emptyState(page, ds.id, '?status=discarded')).toHaveText('You have no discarded records', { timeout: 15_000 });

  // Nothing left to annotate, but the team has not completed every record.
  await respond(ds.annotator, ds.recordIds[1]!, 'discarded');
  await expect(await emptyState(page, ds.id)).toHaveText('🎉 Your have no pending records to annotate', { timeout: 15_000 });

  // Every record has its submitted response.
  await respond(ds.annotator, ds.recordIds[1]!, 'submitted');
  await expect(await emptyState(page, ds.id)).toHaveText('🎉 The task is completed!', { timeout: 15_000 });
});
