import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { baseUrl } from '../fixtures/api.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/plain-host');
const SINGLE_SPA = path.resolve(import.meta.dirname, '../../node_modules/single-spa/lib/es2015/esm/single-spa.min.js');

test('a plain HTML page with no React mounts a remote through its single-spa lifecycles', async ({ page }) => {
  // The page lives on the server's origin (so the remote's URLs resolve) but is served by the test.
  await page.route('**/plain-host/index.html', (route) => route.fulfill({ contentType: 'text/html', body: fs.readFileSync(path.join(FIXTURES, 'index.html')) }));
  await page.route('**/plain-host/host.js', (route) => route.fulfill({ contentType: 'text/javascript', body: fs.readFileSync(path.join(FIXTURES, 'host.js')) }));
  await page.route('**/plain-host/single-spa.js', (route) => route.fulfill({ contentType: 'text/javascript', body: fs.readFileSync(SINGLE_SPA) }));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${baseUrl()}/plain-host/index.html#/import`);
  await expect(page.getByTestId('hub-repo-id')).toHaveText('stanfordnlp/imdb');
  expect(await page.evaluate(() => (window as unknown as { React?: unknown }).React)).toBeUndefined();

  // single-spa unmounts when the route no longer matches, and mounts again when it does.
  await page.evaluate(() => { window.location.hash = '#/elsewhere'; });
  await expect(page.getByTestId('hub-repo-id')).toHaveCount(0);
  await page.evaluate(() => { window.location.hash = '#/import'; });
  await expect(page.getByTestId('hub-repo-id')).toHaveText('stanfordnlp/imdb');
  expect(errors).toEqual([]);
});
