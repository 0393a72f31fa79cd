import { expect, test } from '@playwright/test';
import { baseUrl, createUser } from '../fixtures/api.js';

test.describe('sign-in journey', () => {
  test('wrong password, then sign in and out', async ({ page }) => {
    const user = await createUser('annotator');
    await page.goto(`${baseUrl()}/`);
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.locator('[data-layout="authentication"]')).toBeVisible();

    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong username or password. Try again');

    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${baseUrl()}/`);
    await expect(page.getByRole('heading', { name: 'Your datasets' })).toBeVisible();

    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.locator('.sch-user-menu__panel')).toContainText(user.username);
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto(`${baseUrl()}/user-settings`);
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test('redirectTo brings the user back to the page asked for', async ({ page }) => {
    const user = await createUser('admin');
    await page.goto(`${baseUrl()}/user-settings`);
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${baseUrl()}/user-settings`);
    await expect(page.getByTestId('user-username')).toHaveText(user.username);
    await expect(page.getByTestId('user-api-key')).toHaveText(user.api_key);
  });

  test('an expired token logs out on the current-user call and still brings the user back', async ({ page }) => {
    const user = await createUser('annotator');
    await page.goto(`${baseUrl()}/no/such/page`);
    await page.evaluate(() => localStorage.setItem('scholia.token', 'expired-or-forged'));
    await page.goto(`${baseUrl()}/user-settings`);
    await expect(page).toHaveURL(/\/sign-in$/);
    expect(await page.evaluate(() => localStorage.getItem('scholia.token'))).toBeNull();
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${baseUrl()}/user-settings`);
    await expect(page.getByTestId('user-username')).toHaveText(user.username);
  });
});
