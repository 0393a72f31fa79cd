import { expect, test, type Page } from '@playwright/test';
import { baseUrl, OWNER, signInAs } from '../fixtures/api.js';
import { createXssDataset, type XssDataset } from '../fixtures/xss-dataset.js';
import { assertCustomFramesIsolated, installXssGuard, type XssGuard } from '../fixtures/xss-guard.js';
import { beacon, corpus, CORPUS_SIZE, shortPayload } from '../fixtures/xss-payloads.js';

/**
 * Web security: the XSS corpus (xss-payloads.ts) goes in through every field type, every
 * question type, titles, descriptions, labels, guidelines, metadata, suggestions, dataset,
 * workspace and user names, and the hub viewer's answers; every screen that renders them is
 * visited and nothing may run.
 *
 * CSP (`script-src 'self'`) would block inline scripts and handlers anyway; this suite bypasses it
 * so it proves the rendering itself is safe (CSP stays a second line of defence). The DOM scan of
 * the guard also fails on markup that would only run on a click (javascript: links, forms...).
 */
test.use({ bypassCSP: true });

let ds: XssDataset;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  ds = await createXssDataset();
  console.log(`xss corpus: ${CORPUS_SIZE} payloads × ${ds.recordCount} records; refused by the server: ${ds.refused.length ? ds.refused.join(' | ') : 'none'}`);
});

async function guarded(page: Page, user: { username: string; password: string }): Promise<XssGuard> {
  const guard = await installXssGuard(page);
  await signInAs(page, user.username, user.password);
  return guard;
}

async function openUserMenu(page: Page, guard: XssGuard, screen: string) {
  const menu = page.getByRole('button', { name: 'User menu' });
  if (await menu.isVisible()) {
    await menu.click();
    await guard.scan(`${screen} user menu`);
    await page.keyboard.press('Escape');
  }
}

test('positive control: the guard sees each beacon kind fire and flags injected markup', async ({ page }) => {
  const guard = await guarded(page, ds.annotator);
  await page.goto(`${baseUrl()}/no/such/page`);
  await page.evaluate((html) => { document.body.insertAdjacentHTML('beforeend', html); }, [0, 1, 2, 3, 4].map((i) => `<img src=x onerror=${beacon(`control-${i}`, i)}>`).join(''));
  await expect.poll(() => guard.hits.length).toBe(5);
  expect(guard.hits.join('\n')).toMatch(/call control-0 \(read the token\)/);
  expect(guard.hits.join('\n')).toMatch(/dialog alert control-1/);
  expect(guard.hits.join('\n')).toMatch(/request .*__xss_control-2ey/); // the token was appended
  expect(guard.hits.join('\n')).toMatch(/title XSS-control-3/);
  expect(guard.hits.join('\n')).toMatch(/console XSS-FIRED-control-4/);
  await guard.scan('control');
  expect(guard.findings.filter((f) => f.includes('handler onerror'))).toHaveLength(5);
});

test('the server refuses dangerous image URLs and markup in suggestion agents', () => {
  for (const [url, code] of Object.entries(ds.imageUrlStatuses)) expect(code, `image URL ${url}`).toBeGreaterThanOrEqual(400);
  for (const code of Object.values(ds.imageUrlStatuses)) expect(code).toBeLessThan(500);
  expect(ds.markupAgentStatus).toBe(422);
});

test('home: dataset, workspace and user names', async ({ browser }) => {
  for (const user of [ds.annotator, ds.admin, OWNER]) {
    const page = await browser.newPage({ bypassCSP: true });
    const guard = await guarded(page, user);
    await page.goto(`${baseUrl()}/`);
    await expect(page.getByTestId('dataset-item').first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('dataset-item').filter({ hasText: ds.name })).toHaveCount(1);
    await guard.scan(`home as ${user === OWNER ? 'owner' : user === ds.admin ? 'admin' : 'annotator'}`);
    await openUserMenu(page, guard, 'home');
    await page.getByLabel('Workspace').selectOption({ label: ds.workspaceName }).catch(() => {});
    await guard.scan('home filtered by workspace');
    guard.assertClean();
    await page.close();
  }
});

test('annotation focus mode: every record, field and question type, guidelines, filters', async ({ page }) => {
  test.setTimeout(240_000);
  const guard = await guarded(page, ds.annotator);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  await expect(page.getByTestId('focus-record')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('annotation-dataset-name')).toHaveText(ds.name);

  // Not vacuous: the hostile text is there, as text (record 1 carries the <script> payload).
  await expect(page.getByTestId('span-text-entities')).toContainText('<script>top.__xss(/text-script/.source');
  await expect(page.getByTestId('field-md')).toBeVisible();

  // The custom-template frames: sandboxed without allow-same-origin, the token out of reach.
  expect(await assertCustomFramesIsolated(page, ['field-custom', 'field-custom_adv'])).toBe(2);

  // The guidelines drawer and the filter panel (metadata titles and terms).
  await page.getByTestId('guidelines-toggle').click();
  await guard.scan('focus: guidelines');
  await page.keyboard.press('Escape');
  await page.getByText('Filters', { exact: false }).first().click().catch(() => {});
  await guard.scan('focus: filters');
  await page.getByText('Filters', { exact: false }).first().click().catch(() => {});

  for (let n = 1; n <= ds.recordCount; n += 1) {
    await expect(page.getByTestId('record-position')).toHaveText(new RegExp(`Record ${n} of ${ds.recordCount}`));
    // The text question's Markdown preview of its (hostile) suggested answer.
    const preview = page.getByTestId('focus-record').getByRole('tab', { name: 'Preview' });
    if (await preview.count()) await preview.first().click();
    await guard.scan(`focus record ${n}`);
    if (n < ds.recordCount) await page.getByRole('button', { name: 'Next →' }).click();
  }

  // The annotator types a payload into the text question and previews it.
  await page.getByTestId('focus-record').getByRole('tab', { name: 'Write' }).first().click();
  const typed = corpus('typed').map((p) => p.text).join('\n\n');
  await page.getByTestId('question-input-comment').fill(typed);
  await page.getByTestId('focus-record').getByRole('tab', { name: 'Preview' }).first().click();
  await guard.scan('focus: typed Markdown preview');
  await openUserMenu(page, guard, 'annotation');
  guard.assertClean();
});

test('annotation bulk mode: every page of records', async ({ page }) => {
  test.setTimeout(180_000);
  const guard = await guarded(page, ds.annotator);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode?mode=bulk&size=10`);
  await expect(page.getByTestId('bulk-view')).toBeVisible({ timeout: 15_000 });
  const pages = Math.ceil(ds.recordCount / 10);
  for (let n = 1; n <= pages; n += 1) {
    await expect(page.getByTestId('bulk-page')).toContainText(`${n}`);
    await expect(page.getByTestId('bulk-record').first()).toBeVisible();
    await guard.scan(`bulk page ${n}`);
    if (n < pages) await page.getByRole('button', { name: 'Next →' }).click();
  }
  guard.assertClean();
});

test('dataset settings: admin and annotator views', async ({ browser }) => {
  test.setTimeout(120_000);
  for (const [who, user] of [['admin', ds.admin], ['annotator', ds.annotator]] as const) {
    const page = await browser.newPage({ bypassCSP: true });
    const guard = await guarded(page, user);
    await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
    await expect(page.getByTestId('settings-dataset-name')).toHaveText(ds.name, { timeout: 15_000 });
    await guard.scan(`settings as ${who}`);
    // Guidelines preview tab of the admin form, when there.
    const previewTab = page.getByRole('tab', { name: 'Preview' });
    if (who === 'admin' && await previewTab.count()) {
      await previewTab.first().click();
      await guard.scan('settings: guidelines preview');
    }
    await openUserMenu(page, guard, `settings as ${who}`);
    guard.assertClean();
    await page.close();
  }
});

test('user settings and the user menu: hostile username, first and last name', async ({ browser }) => {
  for (const user of [ds.annotator, ds.admin]) {
    const page = await browser.newPage({ bypassCSP: true });
    const guard = await guarded(page, user);
    await page.goto(`${baseUrl()}/user-settings`);
    await expect(page.getByText(user.username, { exact: false }).first()).toBeVisible({ timeout: 15_000 });
    await guard.scan('user settings');
    await openUserMenu(page, guard, 'user settings');
    guard.assertClean();
    await page.close();
  }
});

test('hub import screens: hostile viewer answers (columns, labels, cells, chat, image URLs)', async ({ page }) => {
  test.setTimeout(90_000);
  const hub = process.env.SCHOLIA_E2E_FAKE_HUB_URL!;
  const repo = 'xss/payloads';
  const cells = corpus('hubcell');
  const labels = corpus('hublabel').slice(0, 6).map((p) => p.text);
  const hostileColumn = shortPayload('hubcolumn', 0);
  const features = {
    text: { dtype: 'string', _type: 'Value' },
    [hostileColumn]: { dtype: 'string', _type: 'Value' },
    label: { names: labels, _type: 'ClassLabel' },
    image: { _type: 'Image' },
    messages: { feature: { role: { dtype: 'string', _type: 'Value' }, content: { dtype: 'string', _type: 'Value' } }, _type: 'List' },
  };
  const rows = cells.map((cell, i) => ({
    row_idx: i,
    row: {
      text: cell.text,
      [hostileColumn]: cells[(i + 1) % cells.length]!.text,
      label: i % labels.length,
      image: { src: i % 2 ? `javascript:${beacon(`hubimage-${i}`, i)}` : `data:text/html;base64,${Buffer.from(`<script>${beacon(`hubimage-${i}`, i)}</script>`).toString('base64')}`, height: 1, width: 1 },
      messages: [{ role: cells[(i + 2) % cells.length]!.text, content: cells[(i + 3) % cells.length]!.text }],
    },
    truncated_cells: [],
  }));
  const subset = shortPayload('hubsubset', 3);
  await page.route((url) => url.href.startsWith(hub) && url.searchParams.get('dataset') === repo, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path.endsWith('/info')) {
      return route.fulfill({ json: { dataset_info: { default: { config_name: 'default', features, splits: { train: { name: 'train', num_examples: rows.length } } }, [subset]: { features, splits: { [subset]: { name: subset, num_examples: 1 } } } } } });
    }
    if (path.endsWith('/first-rows')) return route.fulfill({ json: { features: Object.entries(features).map(([name, type], i) => ({ feature_idx: i, name, type })), rows, truncated: false } });
    if (path.endsWith('/statistics')) {
      return route.fulfill({ json: { num_examples: rows.length, partial: false, statistics: [{ column_name: 'label', column_type: 'class_label', column_statistics: { nan_count: 0, nan_proportion: 0, no_label_count: 0, no_label_proportion: 0, n_unique: labels.length, frequencies: Object.fromEntries(labels.map((l) => [l, 1])) } }] } });
    }
    return route.fulfill({ status: 404, json: { error: 'Not found.' } });
  });
  const guard = await guarded(page, OWNER);
  await page.goto(`${baseUrl()}/${encodeURIComponent(repo)}`);
  await expect(page.getByTestId('hub-repo-id')).toHaveText(repo, { timeout: 15_000 });
  await expect(page.getByRole('table', { name: 'Columns' })).toBeVisible();
  await guard.scan('hub import: repository lookup');
  await page.getByRole('button', { name: 'Configure the dataset' }).click();
  await expect(page.getByRole('heading', { name: 'Configure your dataset' })).toBeVisible({ timeout: 15_000 });
  await guard.scan('hub import: configuration and preview');
  guard.assertClean();
});
