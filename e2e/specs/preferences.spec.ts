import { expect, test } from '@playwright/test';
import { baseUrl, createUser, signInAs } from '../fixtures/api.js';

test('theme and language are saved across reloads', async ({ page }) => {
  const user = await createUser('annotator');
  await signInAs(page, user.username, user.password);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${baseUrl()}/user-settings`);
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'dark'); // default is system, and the OS says dark

  await page.getByLabel('Theme').selectOption('high-contrast');
  await expect(html).toHaveAttribute('data-theme', 'high-contrast');
  await page.getByLabel('Language').selectOption('de');
  await expect(page.getByRole('heading', { name: 'Meine Einstellungen' })).toBeVisible();

  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'high-contrast');
  await expect(html).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { name: 'Meine Einstellungen' })).toBeVisible();

  // Remotes follow the language too.
  await page.goto(`${baseUrl()}/`);
  await expect(page.getByRole('heading', { name: 'Deine Datasets' })).toBeVisible();
  await expect(page.getByPlaceholder('Datasets durchsuchen')).toBeVisible();

  await page.goto(`${baseUrl()}/user-settings`);
  await page.getByLabel('Design').selectOption('system');
  await page.getByLabel('Sprache').selectOption('es');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Mi configuración' })).toBeVisible();
});

test('offline and online toasts', async ({ page, context }) => {
  const user = await createUser('annotator');
  await signInAs(page, user.username, user.password);
  await page.goto(`${baseUrl()}/user-settings`);
  await expect(page.getByTestId('user-username')).toBeVisible();
  await context.setOffline(true);
  const offline = page.locator('.sch-toast', { hasText: 'You are offline' });
  await expect(offline).toBeVisible();
  await expect(page.locator('.sch-toasts[data-position="bottom-left"]')).toBeVisible();
  await context.setOffline(false);
  await expect(page.locator('.sch-toast', { hasText: 'You are online again' })).toBeVisible();
  await offline.click(); // closes on click
  await expect(offline).toHaveCount(0);
});
