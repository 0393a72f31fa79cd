import { expect, test } from '@playwright/test';
import { addToWorkspace, baseUrl, createDataset, createUser, createWorkspace, OWNER, signInAs, unique } from '../fixtures/api.js';

test('dataset list: count, search, sort, workspace filter and opening a dataset', async ({ page }) => {
  const user = await createUser('annotator');
  const team = await createWorkspace(unique('team'));
  const other = await createWorkspace(unique('other'));
  await addToWorkspace(team.id, user.id);
  await addToWorkspace(other.id, user.id);
  const tag = unique('e2e');
  // Created in this order, so "created" (newest first) is the reverse.
  const names = [`${tag}_charlie`, `${tag}_alpha`, `${tag}_bravo`];
  const created = [];
  for (const [i, name] of names.entries()) created.push(await createDataset(name, i === 2 ? other.id : team.id));

  await signInAs(page, user.username, user.password);
  await page.goto(`${baseUrl()}/`);
  await expect(page.getByTestId('datasets-count')).toHaveText('3 datasets found');
  // Annotators cannot create datasets or records: no snippet, a pointer to an administrator.
  await expect(page.getByTestId('python-snippet').getByRole('note')).toHaveText(/Ask an administrator to upload records/);
  await expect(page.getByTestId('python-snippet').locator('pre')).toHaveCount(0);

  const items = page.getByTestId('dataset-item').locator('a');
  await page.getByLabel('Sort by').selectOption('name');
  await expect(items).toHaveText([`${tag}_alpha`, `${tag}_bravo`, `${tag}_charlie`]);
  await page.getByLabel('Sort by').selectOption('created');
  await expect(items).toHaveText([`${tag}_bravo`, `${tag}_alpha`, `${tag}_charlie`]);

  await page.getByLabel('Workspace').selectOption({ label: other.name });
  await expect(page.getByTestId('datasets-count')).toHaveText('1 dataset found');
  await expect(items).toHaveText([`${tag}_bravo`]);
  await page.getByLabel('Workspace').selectOption({ label: 'All workspaces' });

  await page.getByRole('searchbox', { name: 'Search datasets' }).fill('CHAR');
  await expect(page.getByTestId('datasets-count')).toHaveText('1 dataset found');
  await items.first().click();
  await expect(page).toHaveURL(`${baseUrl()}/dataset/${created[0].id}/annotation-mode`);
  await expect(page.getByTestId('annotation-dataset-name')).toHaveText(`${tag}_charlie`);
  await expect(page.getByTestId('annotation-progress')).toContainText('0 of 0 records completed');

  await page.getByRole('link', { name: 'Dataset settings' }).click();
  await expect(page.getByTestId('settings-dataset-name')).toHaveText(`${tag}_charlie`);
  await expect(page.getByText(team.name)).toBeVisible();
});

test('empty state, hub import and the Python snippet', async ({ page, context }) => {
  const user = await createUser('admin');
  await signInAs(page, user.username, user.password);
  await page.goto(`${baseUrl()}/`);
  await expect(page.getByTestId('datasets-count')).toHaveText('0 datasets found');
  await expect(page.getByRole('heading', { name: 'There are no datasets yet' })).toBeVisible();

  const snippet = page.getByTestId('python-snippet');
  const code = snippet.locator('pre');
  await expect(code).toContainText(`rg.Argilla(api_url="${baseUrl()}", api_key="${user.api_key}")`);
  await expect(code).toContainText('rg.Settings(');
  await expect(code).toContainText('dataset.records.log([');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await snippet.getByRole('button', { name: 'Copy code' }).click();
  const tooltip = snippet.getByRole('tooltip');
  await expect(tooltip).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.textContent());
  await expect(tooltip).toHaveText('Copy code', { timeout: 2500 }); // "Copied" lasts 1 s
  await page.mouse.move(0, 0);
  await expect(tooltip).toBeHidden();

  await page.getByLabel('Repository id').fill('stanfordnlp/imdb');
  await page.getByRole('button', { name: 'Import dataset' }).click();
  await expect(page).toHaveURL(`${baseUrl()}/stanfordnlp%2Fimdb`);
  await expect(page.getByTestId('hub-repo-id')).toHaveText('stanfordnlp/imdb');
});

test('on a phone the owner home page fits the screen: the Python snippet scrolls inside its box', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, OWNER.username, OWNER.password);
  await page.goto(`${baseUrl()}/`);
  await expect(page.getByTestId('python-snippet').locator('pre')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBe(0);
  // The dataset search keeps a row of its own, wide enough for its placeholder.
  const search = page.getByRole('searchbox', { name: 'Search datasets' });
  const room = await search.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    return input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - context.measureText(input.placeholder).width;
  });
  expect(room).toBeGreaterThanOrEqual(0);
});
