import path from 'node:path';
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { baseUrl } from '../fixtures/api.js';
import { createAnnotationDataset } from '../fixtures/annotation-dataset.js';
import { ANNOTATION_HOST_HTML, annotationHostJs } from '../fixtures/annotation-host.js';

const SINGLE_SPA = path.resolve(import.meta.dirname, '../../node_modules/single-spa/lib/es2015/esm/single-spa.min.js');

test('a page with no React embeds the annotation of one dataset via single-spa, given an API URL and a token', async ({ page }) => {
  const ds = await createAnnotationDataset(2);
  const tokenResponse = await fetch(`${baseUrl()}/api/v1/token`, {
    method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: ds.annotator.username, password: ds.annotator.password }).toString(),
  });
  const { access_token } = (await tokenResponse.json()) as { access_token: string };
  await page.route('**/annotation-host/index.html', (r) => r.fulfill({ contentType: 'text/html', body: ANNOTATION_HOST_HTML }));
  await page.route('**/annotation-host/host.js', (r) => r.fulfill({ contentType: 'text/javascript', body: annotationHostJs(ds.id, access_token) }));
  await page.route('**/annotation-host/single-spa.js', (r) => r.fulfill({ contentType: 'text/javascript', body: fs.readFileSync(SINGLE_SPA) }));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${baseUrl()}/annotation-host/index.html`);
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'POSITIVE' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
  expect(await page.evaluate(() => (window as unknown as { React?: unknown }).React)).toBeUndefined();
  expect(errors).toEqual([]);
});
