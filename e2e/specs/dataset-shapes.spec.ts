import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { baseUrl, OWNER, signInAs } from '../fixtures/api.js';
import {
  ARABIC_TEXT, CHINESE_TEXT, createChatImageDataset, createCustomTemplateDataset, createLongFormDataset, createScriptsDataset,
  createSentimentDataset, type ShapeDataset,
} from '../fixtures/shape-datasets.js';

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
type Size = keyof typeof SIZES;

/**
 * The screen as it is, kept with the test's results (never compared: these are for a person to look
 * at); `wholePage` keeps the whole page as screens one under the other.
 */
async function keepScreenshot(page: Page, testInfo: TestInfo, name: string, wholePage = false) {
  const view = page.viewportSize()!;
  const height = wholePage ? await page.evaluate(() => document.scrollingElement!.scrollHeight) : view.height;
  for (let top = 0, part = 1; top < height; top += view.height, part++) {
    const file = testInfo.outputPath(wholePage ? `${name}-${part}.png` : `${name}.png`);
    await page.screenshot({ path: file, fullPage: wholePage, clip: { x: 0, y: top, width: view.width, height: Math.min(view.height, height - top) } });
    await testInfo.attach(wholePage ? `${name}-${part}` : name, { path: file, contentType: 'image/png' });
  }
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, width } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, width: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(width);
}

/** The element is in the window and the pointer would reach it there: nothing (pinned actions, toasts) lies on it. */
async function expectReachable(page: Page, locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  const view = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(view.width);
  expect(box.y + box.height).toBeLessThanOrEqual(view.height);
  expect(await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && el.contains(hit);
  })).toBe(true);
}

/** Opens the dataset's first record, checks what every shape must have at this size, and keeps a screenshot. */
async function openAndCheck(page: Page, testInfo: TestInfo, ds: ShapeDataset, shape: string, size: Size, theme: 'light' | 'dark' = 'light') {
  await page.emulateMedia({ colorScheme: theme });
  await page.setViewportSize(SIZES[size]);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  const record = page.getByTestId('focus-record');
  await expect(record).toBeVisible({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.sch-loading')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await keepScreenshot(page, testInfo, `${shape}-${size}${theme === 'dark' ? '-dark' : ''}`);

  // Every question's first control, then each action, can be reached and clicked where it is drawn.
  const panel = page.getByTestId('questions-panel');
  const questions = panel.locator('fieldset[data-question]');
  expect(await questions.count()).toBeGreaterThan(0);
  for (const question of await questions.all()) {
    await expectReachable(page, question.locator('button, textarea, input, [contenteditable="true"]').first());
  }
  const actions = page.getByTestId('record-actions');
  for (const name of ['Discard', 'Save as draft', 'Submit']) await expectReachable(page, actions.getByRole('button', { name }));
  await expectNoSidewaysScroll(page);
  return { pane: page.getByTestId('record-pane'), panel };
}

/** The bulk view of the dataset's records, at both sizes: rows that fit the width, screenshots kept. */
async function checkBulk(page: Page, testInfo: TestInfo, ds: ShapeDataset, shape: string) {
  for (const size of ['desktop', 'phone'] as const) {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(SIZES[size]);
    await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode?mode=bulk`);
    await expect(page.getByTestId('bulk-record').first()).toBeVisible({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    await expectNoSidewaysScroll(page);
    await keepScreenshot(page, testInfo, `${shape}-bulk-${size}`);
  }
}

/** The owner's dataset settings on a phone fit its width (the Python snippet scrolls in its own box). */
async function checkSettingsOnPhone(page: Page, testInfo: TestInfo, ds: ShapeDataset, shape: string) {
  await page.emulateMedia({ colorScheme: 'light' });
  await signInAs(page, OWNER.username, OWNER.password);
  await page.setViewportSize(SIZES.phone);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.sch-loading')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await keepScreenshot(page, testInfo, `${shape}-settings-phone`, true);
}

const readsRightToLeft = (locator: Locator) => locator.evaluate((el) => el.matches(':dir(rtl)'));

test.describe('five dataset shapes at 1440×900 and 390×844', () => {
  test.describe.configure({ timeout: 120_000 });

  test('sentiment with suggestions: the suggestion preselected', async ({ page }, testInfo) => {
    const ds = await createSentimentDataset();
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    for (const size of ['desktop', 'phone'] as const) {
      const { pane, panel } = await openAndCheck(page, testInfo, ds, 'sentiment', size);
      await expect(pane.getByTestId('field-review')).toContainText('The plot drags');
      await expect(panel.getByRole('button', { name: /neutral/ })).toHaveClass(/is-selected/);
      await expect(page.getByTestId('record-actions').getByRole('button', { name: 'Submit' })).toBeEnabled();
    }
    await openAndCheck(page, testInfo, ds, 'sentiment', 'desktop', 'dark');
    await checkBulk(page, testInfo, ds, 'sentiment');
    await checkSettingsOnPhone(page, testInfo, ds, 'sentiment');
  });

  test('a 5,000-word text with 30 labels, a ranking, a rating, a span and a free text: the text in the record pane', async ({ page }, testInfo) => {
    const ds = await createLongFormDataset();
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    for (const size of ['desktop', 'phone'] as const) {
      const { pane, panel } = await openAndCheck(page, testInfo, ds, 'long-form', size);
      // The span's text is the article itself, once, in the record pane; its labels in the questions panel.
      await expect(pane.getByTestId('span-text-entities')).toContainText('Article 1. ');
      await expect(panel.getByTestId('span-text-entities')).toHaveCount(0);
      await expect(pane.getByTestId('field-article')).toHaveCount(1);
      await expect(panel.getByRole('radiogroup', { name: 'Mark the people and places' })).toBeVisible();
      // On a desktop the record pane scrolls on its own and the page does not; the actions stay in view.
      if (size === 'desktop') {
        expect(await pane.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(3000);
        expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(1);
      }
    }
    await openAndCheck(page, testInfo, ds, 'long-form', 'desktop', 'dark');
    await checkBulk(page, testInfo, ds, 'long-form');
    await checkSettingsOnPhone(page, testInfo, ds, 'long-form');
  });

  test('chat, image and Markdown: the picture fits its pane, links open a new tab', async ({ page }, testInfo) => {
    const ds = await createChatImageDataset();
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    for (const size of ['desktop', 'phone'] as const) {
      const { pane } = await openAndCheck(page, testInfo, ds, 'chat-image', size);
      const assistant = pane.locator('[data-role="assistant"]');
      await expect(assistant).toContainText('30 days');
      // Each side's messages keep to their own side, as in a chat.
      const chatBox = (await pane.getByTestId('field-conversation').boundingBox())!;
      const assistantBox = (await assistant.boundingBox())!;
      const userBox = (await pane.locator('[data-role="user"]').first().boundingBox())!;
      expect(assistantBox.width).toBeLessThan(chatBox.width * 0.9);
      expect(userBox.x + userBox.width).toBeGreaterThan(assistantBox.x + assistantBox.width);
      const image = pane.getByTestId('field-screenshot').getByRole('img');
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(600);
      const paneBox = (await pane.boundingBox())!;
      const imageBox = (await image.boundingBox())!;
      expect(imageBox.x + imageBox.width).toBeLessThanOrEqual(paneBox.x + paneBox.width);
      const link = pane.getByTestId('field-note').getByRole('link', { name: 'the policy' });
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(pane.getByTestId('field-note').locator('table')).toBeVisible();
    }
    // In the dark theme the user's messages are dark too, their text light.
    const { pane } = await openAndCheck(page, testInfo, ds, 'chat-image', 'desktop', 'dark');
    const userMessage = pane.locator('[data-role="user"]').first();
    // Mean of the red, green and blue a colour is painted with (any CSS colour syntax).
    const [background, text] = await userMessage.evaluate((el) => {
      const context = document.createElement('canvas').getContext('2d')!;
      const lightness = (colour: string) => {
        context.fillStyle = colour;
        context.fillRect(0, 0, 1, 1);
        const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
        return (r! + g! + b!) / 3;
      };
      return [lightness(getComputedStyle(el).backgroundColor), lightness(getComputedStyle(el).color)];
    });
    expect(background).toBeLessThan(100);
    expect(text).toBeGreaterThan(180);
    await checkBulk(page, testInfo, ds, 'chat-image');
    await checkSettingsOnPhone(page, testInfo, ds, 'chat-image');
  });

  test('Arabic, Hebrew and Chinese: each text reads in its own direction, the span text in the record pane', async ({ page }, testInfo) => {
    const ds = await createScriptsDataset();
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    for (const size of ['desktop', 'phone'] as const) {
      const { pane, panel } = await openAndCheck(page, testInfo, ds, 'scripts', size);
      const arabic = pane.getByTestId('span-text-entities');
      await expect(arabic).toHaveText(ARABIC_TEXT);
      expect(await readsRightToLeft(arabic)).toBe(true);
      const hebrew = pane.getByTestId('field-hebrew').locator('.sch-markdown p');
      await expect(hebrew).toContainText('מצוין');
      expect(await readsRightToLeft(hebrew)).toBe(true);
      const chinese = pane.getByTestId('field-chinese').getByText(CHINESE_TEXT);
      expect(await readsRightToLeft(chinese)).toBe(false);
      expect(await readsRightToLeft(panel.getByRole('button', { name: /إيجابي/ }).locator('bdi'))).toBe(true);
      // The page around them stays left to right.
      expect(await readsRightToLeft(page.getByTestId('record-position'))).toBe(false);
    }
    await openAndCheck(page, testInfo, ds, 'scripts', 'desktop', 'dark');
    await checkBulk(page, testInfo, ds, 'scripts');
    await checkSettingsOnPhone(page, testInfo, ds, 'scripts');
  });

  test('a custom template: its frame fits the record pane and shows the record', async ({ page }, testInfo) => {
    const ds = await createCustomTemplateDataset();
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    for (const size of ['desktop', 'phone'] as const) {
      const { pane } = await openAndCheck(page, testInfo, ds, 'custom-template', size);
      const frame = pane.getByTestId('field-product').locator('iframe');
      await expect(frame).toHaveAttribute('srcdoc', /Espresso machine 1/);
      const paneBox = (await pane.boundingBox())!;
      const frameBox = (await frame.boundingBox())!;
      expect(frameBox.x + frameBox.width).toBeLessThanOrEqual(paneBox.x + paneBox.width);
      expect(frameBox.height).toBeGreaterThan(60);
      // The template's own stylesheet applies inside the frame.
      const card = pane.getByTestId('field-product').frameLocator('iframe').locator('.card');
      await expect(card).toHaveCSS('border-top-style', 'solid');
      await expect(card.locator('.tags')).toHaveCSS('display', 'flex');
    }
    // In the dark theme the frame is dark too, not a white box in a dark page.
    const { pane } = await openAndCheck(page, testInfo, ds, 'custom-template', 'desktop', 'dark');
    const frameRoot = pane.getByTestId('field-product').frameLocator('iframe').locator('html');
    await expect(frameRoot).not.toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await expect(frameRoot).toHaveCSS('color-scheme', 'dark');
    await checkBulk(page, testInfo, ds, 'custom-template');
    await checkSettingsOnPhone(page, testInfo, ds, 'custom-template');
  });
});
