import { expect, test } from '@playwright/test';
import { baseUrl, createUser, signInAs } from '../fixtures/api.js';

test('an unknown route shows the 404 page', async ({ page }) => {
  await page.goto(`${baseUrl()}/no/such/page`);
  await expect(page.getByText('This page could not be found')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Something went wrong.' })).toBeVisible();
  await expect(page.locator('.sch-error-page__code')).toHaveText('404');
  await expect(page.getByRole('link', { name: 'Back to home page' })).toHaveAttribute('href', '/');
});

test('a remote that fails to load shows an error with Retry; the rest keeps working', async ({ page }) => {
  const user = await createUser('annotator');
  await signInAs(page, user.username, user.password);
  const entry = '**/remotes/mfe-home/remoteEntry.js';
  await page.route(entry, (route) => route.abort('connectionrefused'));

  await page.goto(`${baseUrl()}/`);
  const area = page.locator('.sch-remote-error[data-remote="mfe_home"]');
  await expect(area).toBeVisible();
  await expect(area).toContainText('This part of the page could not be loaded (mfe_home).');
  // The shell still works: header, user menu and another remote-free page.
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'My settings' }).click();
  await expect(page.getByTestId('user-username')).toHaveText(user.username);

  await page.getByRole('link', { name: 'Home' }).first().click();
  await expect(area).toBeVisible();
  await page.unroute(entry);
  await area.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Your datasets' })).toBeVisible();
});

test('a failing server call before a page shows the error page and a danger toast; the link home recovers', async ({ page }) => {
  const user = await createUser('annotator');
  await signInAs(page, user.username, user.password);
  const me = '**/api/v1/me';
  await page.route(me, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));

  await page.goto(`${baseUrl()}/user-settings`);
  await expect(page.getByRole('heading', { name: 'Something went wrong.' })).toBeVisible();
  await expect(page.locator('.sch-error-page__code')).toHaveText('500');
  await expect(page.locator('.sch-error-page__message')).toHaveText('An error occurred, please try again later');
  await expect(page.getByText("We can't seem to find the page you are looking for")).toBeVisible();
  // The global HTTP error handler said it too (spec §8).
  await expect(page.locator('.sch-toast[data-type="danger"]')).toHaveText(/An error occurred, please try again later/);

  await page.unroute(me);
  await page.getByRole('link', { name: 'Back to home page' }).click();
  await expect(page).toHaveURL(`${baseUrl()}/`);
  await expect(page.getByRole('heading', { name: 'Your datasets' })).toBeVisible();
});
