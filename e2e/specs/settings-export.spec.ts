import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { baseUrl, signInAs, unique } from '../fixtures/api.js';
import { apiAs, createSettingsDataset } from '../fixtures/settings-dataset.js';

/** Set by global setup when it starts the fake hub (fixtures/fake-hub.ts). */
const hubUrl = () => process.env.SCHOLIA_E2E_FAKE_HUB_URL;

test('the hub export form validates, keeps the job in local storage and follows it across a reload', async ({ page }) => {
  test.skip(!hubUrl(), 'the e2e server runs without the fake hub');
  const ds = await createSettingsDataset();
  await signInAs(page, ds.admin.username, ds.admin.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
  const form = page.getByTestId('hub-export-form');

  // Validation messages of spec §5, nothing sent.
  await form.getByLabel('Dataset name').fill('');
  await form.getByRole('button', { name: 'Export' }).click();
  await expect(form.getByText('Organization or username is required')).toBeVisible();
  await expect(form.getByText('Dataset name is required')).toBeVisible();
  await expect(form.getByText('Hugging Face token is required')).toBeVisible();
  await form.getByLabel('Hugging Face token').fill('not-a-token');
  await expect(form.getByText('Invalid Hugging Face token')).toBeVisible();

  // A token the hub refuses: the job fails and a toast says so, and why.
  const repo = unique('export');
  await form.getByLabel('Organization or username').fill('alice');
  await form.getByLabel('Dataset name').fill(repo);
  await form.getByLabel('Hugging Face token').fill('hf_unknown_token');
  await form.getByRole('button', { name: 'Export' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `The export of ${ds.name} to the Hugging Face Hub failed: ` }).filter({ hasText: /token/i })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('scholia.exportJobs'))).toBe('{}');

  // A good token: the job id is stored; after a reload the status is still followed to the end.
  await form.getByLabel('Hugging Face token').fill('hf_write_alice');
  await form.getByLabel('Private repository').check();
  // Until after the reload, status reads answer "started", so the page surely still follows the
  // job from local storage when it comes back; then the real server answers.
  let holding = true;
  await page.route('**/api/v1/jobs/*', (route) => (holding
    ? route.fulfill({ json: { id: route.request().url().split('/').pop(), status: 'started' } })
    : route.continue()));
  await form.getByRole('button', { name: 'Export' }).click();
  const stored = await page.waitForFunction(() => localStorage.getItem('scholia.exportJobs')?.includes('jobId') && localStorage.getItem('scholia.exportJobs'));
  const entry = JSON.parse(String(await stored.jsonValue()))[ds.id] as { jobId: string; datasetName: string; repoId: string };
  expect(entry).toMatchObject({ datasetName: ds.name, repoId: `alice/${repo}` });
  await expect(page.getByTestId('export-job-status')).toHaveText(`Export to alice/${repo} (job ${entry.jobId}): running`);
  await page.reload();
  await expect(page.getByTestId('export-job-status')).toHaveText(`Export to alice/${repo} (job ${entry.jobId}): running`);
  holding = false;
  await expect(page.getByRole('status').filter({ hasText: `The dataset ${ds.name} was exported to the Hugging Face Hub as alice/${repo}.` })).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => localStorage.getItem('scholia.exportJobs'))).toBe('{}');

  // The repository exists on the (fake) hub, private: anonymous reads get 401 (as the Hub answers for a
  // private or missing repo), alice's token 200.
  expect((await fetch(`${hubUrl()}/api/datasets/alice/${repo}`)).status).toBe(401);
  const owned = await fetch(`${hubUrl()}/api/datasets/alice/${repo}`, { headers: { Authorization: 'Bearer hf_write_alice' } });
  expect(owned.status).toBe(200);
  expect(await owned.json()).toMatchObject({ id: `alice/${repo}`, private: true });
});

test('Download records saves the records, their answers and final answers as JSON Lines and CSV', async ({ page }) => {
  const ds = await createSettingsDataset();
  const [first, second] = ds.recordIds;
  const answer = { status: 'submitted', values: { sentiment: { value: 'positive' } } };
  expect((await apiAs(ds.annotator.api_key, 'POST', `records/${first}/responses`, answer)).status).toBe(201);
  expect((await apiAs(ds.admin.api_key, 'PUT', `records/${first}/validation`, { values: { sentiment: { value: 'mixed' } } })).status).toBe(200);

  await signInAs(page, ds.admin.username, ds.admin.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
  const form = page.getByTestId('records-download-form');

  const jsonlDownload = page.waitForEvent('download');
  await form.getByRole('button', { name: 'Download' }).click();
  const jsonl = await jsonlDownload;
  expect(jsonl.suggestedFilename()).toBe(`${ds.name}.jsonl`);
  const rows = fs.readFileSync(await jsonl.path(), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatchObject({
    id: first,
    status: 'validated',
    review: 'A moving film.',
    'metadata.genre': 'drama',
    'sentiment.responses': [{ user_id: ds.annotator.id, username: ds.annotator.username, value: 'positive', status: 'submitted' }],
    'sentiment.validated': 'mixed',
    validated_by: ds.admin.id,
  });
  expect(rows[1]).toMatchObject({ id: second, status: 'pending', review: 'Funny from start to end.', 'sentiment.responses': [], 'sentiment.validated': null });
  await expect(page.getByTestId('records-download-done')).toHaveText(`${ds.name}.jsonl was downloaded.`);

  await form.getByLabel(/^CSV/).check();
  const csvDownload = page.waitForEvent('download');
  await form.getByRole('button', { name: 'Download' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe(`${ds.name}.csv`);
  const lines = fs.readFileSync(await csv.path(), 'utf8').split('\r\n');
  expect(lines[0]).toBe('id,external_id,status,review,metadata.genre,sentiment.suggestion,sentiment.suggestion.score,sentiment.suggestion.agent,sentiment.responses,sentiment.validated,validated_by,validated_at');
  expect(lines[1]).toMatch(new RegExp(`^${first},,validated,A moving film\\.,drama,,,,"\\[""positive""\\]",mixed,${ds.admin.id},\\d{4}-`));
  expect(lines[2]).toBe(`${second},,pending,Funny from start to end.,comedy,,,,[],,,`);
});
