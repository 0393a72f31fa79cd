import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { baseUrl, OWNER, signInAs } from '../fixtures/api.js';
import { createAnnotationDataset, type AnnotationDataset } from '../fixtures/annotation-dataset.js';

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
const THEMES = ['light', 'dark', 'high-contrast'] as const;

/** The serious and critical WCAG 2.2 AA violations on the page, one line each. */
async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  // A custom field's frame is sandboxed without scripts: axe cannot run inside it (and would wait
  // for it); its content is the dataset's template, not the app.
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .exclude('iframe[sandbox]')
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${screen}: ${v.id} (${v.impact}) × ${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

let ds: AnnotationDataset;
test.beforeAll(async () => {
  ds = await createAnnotationDataset(3);
});

for (const [sizeName, size] of Object.entries(SIZES)) {
  for (const theme of THEMES) {
    test(`no serious or critical accessibility violations: ${sizeName}, ${theme}`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize(size);
      await page.goto(`${baseUrl()}/no/such/page`);
      await page.evaluate((t) => localStorage.setItem('scholia.theme', t), theme);
      const found: string[] = [];

      await page.goto(`${baseUrl()}/sign-in`);
      await expect(page.getByLabel('Username')).toBeVisible({ timeout: 15_000 });
      found.push(...(await seriousViolations(page, 'sign-in')));

      await signInAs(page, OWNER.username, OWNER.password);
      await page.goto(`${baseUrl()}/`);
      await expect(page.getByRole('heading', { name: 'Your datasets' })).toBeVisible({ timeout: 15_000 });
      found.push(...(await seriousViolations(page, 'home')));

      const annotation = `${baseUrl()}/dataset/${ds.id}/annotation-mode`;
      await page.goto(annotation);
      await expect(page.getByTestId('focus-record')).toBeVisible({ timeout: 15_000 });
      found.push(...(await seriousViolations(page, 'focus')));
      await page.goto(`${annotation}?mode=bulk`);
      await expect(page.getByTestId('bulk-record').first()).toBeVisible({ timeout: 15_000 });
      found.push(...(await seriousViolations(page, 'bulk')));
      await page.goto(`${annotation}?mode=review`);
      await expect(page.getByTestId('review-view')).toBeVisible({ timeout: 15_000 });
      found.push(...(await seriousViolations(page, 'review')));

      await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
      await expect(page.getByTestId('settings-dataset-name')).toBeVisible({ timeout: 15_000 });
      found.push(...(await seriousViolations(page, 'settings')));

      // My settings, with the password form's errors showing.
      await page.goto(`${baseUrl()}/user-settings`);
      await expect(page.getByRole('heading', { name: 'Password' })).toBeVisible({ timeout: 15_000 });
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect(page.locator('#password-current-error')).toBeVisible();
      found.push(...(await seriousViolations(page, 'my settings')));

      expect(found).toEqual([]);
    });
  }
}
