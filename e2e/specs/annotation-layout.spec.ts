import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { baseUrl, OWNER, ownerApi, signInAs } from '../fixtures/api.js';
import { createLayoutDataset, createOneQuestionDataset, type LayoutDataset } from '../fixtures/layout-dataset.js';
import { createKeyboardDataset } from '../fixtures/keyboard-dataset.js';
import { createAnnotationDataset, responseOf } from '../fixtures/annotation-dataset.js';
import { createLongFormDataset } from '../fixtures/shape-datasets.js';

const DESKTOP = { width: 1440, height: 900 };
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** Fonts and antialiasing differ a little between machines; a layout change moves far more. */
const SCREENSHOT = { maxDiffPixelRatio: 0.02, threshold: 0.3 };
/** SCHOLIA_DOCS_IMAGES=1 also writes the screens shown in the docs (light theme), under these names. */
const DOCS_IMAGES = process.env.SCHOLIA_DOCS_IMAGES === '1' ? path.resolve(import.meta.dirname, '../../docs/images') : undefined;
const DOCS_NAMES: Record<string, string> = { focus: 'annotation-page.png', bulk: 'annotation-bulk.png', 'focus-phone': 'annotation-phone.png' };

async function open(page: Page, datasetId: string, query = '') {
  await page.goto(`${baseUrl()}/dataset/${datasetId}/annotation-mode${query}`);
  await expect(page.getByTestId('focus-record').or(page.getByTestId('bulk-record').first()).or(page.getByTestId('review-view'))).toBeVisible({ timeout: 15_000 });
}

/** The element lies wholly inside the window. */
async function expectInViewport(page: Page, locator: Locator) {
  const box = (await locator.boundingBox())!;
  const view = page.viewportSize()!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(view.height);
  expect(box.x + box.width).toBeLessThanOrEqual(view.width);
}

/** The record's header stays one row, its title cut with an ellipsis and whole in the tooltip. */
async function expectOneRowRecordHeader(page: Page) {
  const header = page.locator('.mfe-ann-record__header');
  expect((await header.boundingBox())!.height).toBeLessThanOrEqual(60); // two rows take 90
  await expect(header.locator('.mfe-ann-record__title')).toHaveAttribute('title', /^Record 1 of 12 · Pending/);
  const title = header.locator('.mfe-ann-record__title');
  expect(await title.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
}

const submitButton = (page: Page) => page.getByTestId('record-actions').getByRole('button', { name: 'Submit' });

/** The annotation page's own header row: every control an owner has, in keyboard order (`sortOrder` once a sort is chosen). */
function ownerHeaderControls(page: Page, sortOrder?: string): Locator[] {
  const header = page.locator('.mfe-ann-page__header');
  return [
    header.locator('.mfe-ann-team > summary'),
    page.getByRole('link', { name: 'Dataset settings' }),
    ...['Focus', 'Bulk', 'Review'].map((name) => page.getByRole('group', { name: 'View' }).getByRole('button', { name })),
    page.getByRole('combobox', { name: 'Status' }),
    page.getByRole('searchbox', { name: 'Text search' }),
    page.getByRole('combobox', { name: 'Search in' }),
    page.getByRole('combobox', { name: 'Sort by' }),
    ...(sortOrder ? [page.getByRole('button', { name: sortOrder })] : []),
    header.locator('.mfe-ann-filters__more > summary'),
    page.getByRole('button', { name: 'Guidelines' }),
    page.getByRole('button', { name: 'Shortcuts (?)' }),
  ];
}

/** Each control lies within the header row, and Tab goes from one to the next. */
async function expectInRowAndTabOrder(page: Page, controls: Locator[], row: { y: number; height: number }) {
  for (const control of controls) {
    const box = (await control.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(row.y);
    expect(box.y + box.height).toBeLessThanOrEqual(row.y + row.height);
  }
  await controls[0]!.focus();
  for (const control of controls.slice(1)) {
    await page.keyboard.press('Tab');
    await expect(control).toBeFocused();
  }
}

/** The UI kit's field colour in each theme (--sch-surface). */
const SURFACE = { light: 'rgb(255, 255, 255)', dark: 'rgb(30, 33, 38)', 'high-contrast': 'rgb(0, 0, 0)' } as const;
const FOCUS = { light: 'rgb(62, 92, 201)', dark: 'rgb(138, 164, 255)', 'high-contrast': 'rgb(0, 255, 255)' } as const;

test.describe('annotation layout', () => {
  let ds: LayoutDataset;
  test.beforeAll(async () => {
    ds = await createLayoutDataset();
  });

  test('desktop: a 2,000-word record scrolls in its pane; the actions, filters, guidelines and panel width', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    await open(page, ds.id);
    const pane = page.getByTestId('record-pane');
    await expect(pane.getByTestId('field-review')).toContainText('Review dialogue story');

    // The record starts near the top; the page itself does not scroll, the record pane does.
    expect((await pane.getByTestId('field-review').boundingBox())!.y).toBeLessThan(300);
    await expectInViewport(page, submitButton(page));
    expect(await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(1);
    expect(await pane.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(1000);
    await pane.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expectInViewport(page, submitButton(page));
    await expectInViewport(page, page.getByTestId('record-actions').getByRole('button', { name: 'Save as draft' }));
    await expectInViewport(page, page.getByTestId('record-actions').getByRole('button', { name: 'Discard' }));

    // Filters open over the record: it does not move.
    const recordTop = (await pane.boundingBox())!.y;
    await page.locator('.mfe-ann-filters__more > summary').click();
    await expect(page.locator('.mfe-ann-filters__more .mfe-ann-popover__panel')).toBeVisible();
    await expectInViewport(page, page.locator('.mfe-ann-filters__more .mfe-ann-popover__panel'));
    expect((await pane.boundingBox())!.y).toBe(recordTop);
    await page.keyboard.press('Escape');
    await expect(page.locator('.mfe-ann-filters__more .mfe-ann-popover__panel')).toBeHidden();

    // Guidelines on demand, in a drawer; Escape closes it and gives focus back.
    await expect(page.getByTestId('guidelines-drawer')).toHaveCount(0);
    await page.getByTestId('guidelines-toggle').click();
    await expect(page.getByRole('complementary', { name: 'Annotation guidelines' })).toContainText('Movie reviews');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('guidelines-drawer')).toHaveCount(0);
    await expect(page.getByTestId('guidelines-toggle')).toBeFocused();

    // The panel's edge moves with the keyboard, and the width is there again after a reload.
    const panel = page.getByTestId('questions-panel');
    const before = (await panel.boundingBox())!.width;
    await page.getByTestId('panel-resizer').focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await panel.boundingBox())!.width).toBe(before + 48);
    await expect(page.getByTestId('record-position')).toHaveText('Record 1 of 12'); // the arrows stayed with the edge
    await page.reload();
    await expect(panel).toBeVisible({ timeout: 15_000 });
    expect((await panel.boundingBox())!.width).toBe(before + 48);
  });

  test('desktop: two header rows, every control of the page in the second, the record card within 160 px of the top', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    // The owner: the widest header (a third view, the team's progress).
    await signInAs(page, OWNER.username, OWNER.password);
    await open(page, ds.id);
    const appHeader = (await page.locator('.sch-header').boundingBox())!;
    const header = page.locator('.mfe-ann-page__header');
    const headerBox = (await header.boundingBox())!;
    expect(appHeader.height).toBeLessThanOrEqual(60);
    expect(headerBox.height).toBeLessThanOrEqual(56); // one row
    expect(headerBox.y).toBeCloseTo(appHeader.y + appHeader.height, 0);
    expect((await page.locator('.mfe-ann-workspace').boundingBox())!.y).toBeCloseTo(headerBox.y + headerBox.height, 0);
    expect((await page.locator('.mfe-ann-record__fields').boundingBox())!.y).toBeLessThanOrEqual(160);

    // The progress is the button to its details.
    await expect(header.locator('.mfe-ann-team > summary')).toContainText('Team progress');
    await expect(header.locator('.mfe-ann-team > summary').getByTestId('annotation-progress')).toBeVisible();
    await expect(header.locator('.mfe-ann-filters__more > summary')).toHaveText('Filters');
    // Nothing was dropped: each control is in that row, named, and next on the keyboard.
    await expectInRowAndTabOrder(page, ownerHeaderControls(page), headerBox);
    // The progress details open from the row: the reader's own counts and the team's.
    await header.locator('.mfe-ann-team > summary').click();
    await expect(page.getByTestId('my-metrics')).toBeVisible();
    await expect(page.getByTestId('team-progress')).toBeVisible();
  });

  test('the page header\'s fields are the UI kit\'s: no browser-default face, the theme\'s colours and focus ring', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    for (const theme of ['light', 'dark', 'high-contrast'] as const) {
      await page.emulateMedia({ colorScheme: theme === 'light' ? 'light' : 'dark' });
      await open(page, ds.id);
      await page.locator('html').evaluate((html, name) => { html.dataset.theme = name; }, theme);
      // The fields over the workspace, not those in the filters' panel.
      const fields = page.getByTestId('annotation-page').locator(':is(select, input):not(.mfe-ann-popover__panel *, .mfe-ann-workspace *)');
      await expect(fields).toHaveCount(4); // status, search, its field, sort
      for (const field of await fields.all()) {
        const look = await field.evaluate((el) => {
          const style = getComputedStyle(el);
          return { className: el.className, appearance: style.appearance, background: style.backgroundColor, radius: style.borderRadius };
        });
        expect(look).toEqual({ className: expect.stringMatching(/^sch-(select|search)__input$/), appearance: 'none', background: SURFACE[theme], radius: '6px' });
      }
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Bulk' }).focus();
      await page.keyboard.press('Tab');
      const status = page.getByRole('combobox', { name: 'Status' });
      await expect(status).toBeFocused();
      expect(await status.evaluate((el) => [getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineColor])).toEqual(['solid', FOCUS[theme]]);
    }
  });

  test('desktop: Discard, Save as draft and Submit share one row of the questions panel, with their keys', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    await open(page, ds.id);
    const panel = (await page.getByTestId('questions-panel').boundingBox())!;
    const buttons = page.getByTestId('record-actions').getByRole('button');
    await expect(buttons).toHaveText([/^Discard/, /^Save as draft/, /^Submit/]);
    const boxes = await Promise.all((await buttons.all()).map(async (button) => (await button.boundingBox())!));
    for (const box of boxes) {
      expect(box.y).toBeCloseTo(boxes[0]!.y, 0);
      expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
    }
    await expect(page.getByTestId('record-actions').locator('.mfe-ann-key')).toHaveText(['Ctrl ⌫', 'Ctrl S', 'Ctrl ↵']);
    for (const key of await page.getByTestId('record-actions').locator('.mfe-ann-key').all()) await expect(key).toBeVisible();
  });

  test('phone: one column, a one-row header, the record near the top, the action bar pinned at the bottom', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    await open(page, ds.id);
    // The header is one row (name, thin progress, menu) and the record starts within 120 px of the top.
    expect((await page.locator('.mfe-ann-page__header').boundingBox())!.height).toBeLessThanOrEqual(56);
    expect((await page.getByTestId('focus-record').boundingBox())!.y).toBeLessThanOrEqual(120);
    await expect(page.getByTestId('annotation-progress')).toBeVisible();
    await expectOneRowRecordHeader(page);
    const bar = page.getByTestId('record-actions');
    await expectInViewport(page, bar);
    expect((await bar.boundingBox())!.y + (await bar.boundingBox())!.height).toBeGreaterThan(PHONE.height - 4);
    // Questions below the record, not beside it.
    expect((await page.getByTestId('questions-panel').boundingBox())!.y).toBeGreaterThan((await page.getByTestId('record-pane').boundingBox())!.y);
    // The toolbar and the rest of the header are in the menu; the filters open over it.
    await expect(page.getByTestId('page-menu')).toBeHidden();
    await page.locator('.mfe-ann-page__menu > summary').click();
    await expectInViewport(page, page.getByTestId('page-menu'));
    await expect(page.getByTestId('guidelines-toggle')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Shortcuts (?)' })).toBeVisible();
    await page.keyboard.press('Escape');
    // The progress in the header row opens the reader's counts.
    await page.locator('.mfe-ann-page__header .mfe-ann-team > summary').click();
    await expectInViewport(page, page.getByTestId('my-metrics'));
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('my-metrics')).toBeHidden();
    await page.locator('.mfe-ann-page__menu > summary').click();
    await page.locator('.mfe-ann-filters__more > summary').click();
    await expectInViewport(page, page.locator('.mfe-ann-filters__more .mfe-ann-popover__panel'));
    // One Escape closes the filters, the next the menu holding them.
    await page.keyboard.press('Escape');
    await expect(page.locator('.mfe-ann-filters__more .mfe-ann-popover__panel')).toBeHidden();
    await expect(page.getByTestId('page-menu')).toBeVisible();
    await expect(page.locator('.mfe-ann-filters__more > summary')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('page-menu')).toBeHidden();
    await expect(page.locator('.mfe-ann-page__menu > summary')).toBeFocused();
    // The guidelines open from the menu; closing them (a tap outside the menu closes it too) focuses the menu button.
    await page.locator('.mfe-ann-page__menu > summary').click();
    await page.getByTestId('guidelines-toggle').click();
    await page.getByTestId('guidelines-drawer').getByRole('button', { name: 'Close' }).click();
    await expect(page.getByTestId('guidelines-drawer')).toHaveCount(0);
    await expect(page.getByTestId('page-menu')).toBeHidden();
    await expect(page.locator('.mfe-ann-page__menu > summary')).toBeFocused();
    await page.mouse.wheel(0, 3000);
    await expectInViewport(page, submitButton(page));
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });

  test('a narrow page element in a wide window (an embedding host\'s column): one column, one-row headers', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, ds.annotator.username, ds.annotator.password);
    await open(page, ds.id);
    await expect(page.getByTestId('annotation-page')).toHaveAttribute('data-layout', 'wide');
    await page.getByTestId('annotation-page').evaluate((el) => { el.style.width = '480px'; });
    await expect(page.getByTestId('annotation-page')).toHaveAttribute('data-layout', 'narrow');
    expect((await page.locator('.mfe-ann-page__header').boundingBox())!.height).toBeLessThanOrEqual(56);
    await expectOneRowRecordHeader(page);
    await page.locator('.mfe-ann-page__menu > summary').click();
    const menu = page.getByTestId('page-menu');
    await expect(menu).toBeVisible();
    const pageBox = (await page.getByTestId('annotation-page').boundingBox())!;
    const menuBox = (await menu.boundingBox())!;
    expect(menuBox.x).toBeGreaterThanOrEqual(pageBox.x);
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(pageBox.x + pageBox.width);
  });

  test('review mode shows one status selector, the review queue\'s', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, OWNER.username, OWNER.password);
    await open(page, ds.id, '?mode=review');
    await expect(page.getByTestId('review-status')).toBeVisible();
    await expect(page.getByTestId('status-filter')).toHaveCount(0);
  });

  test('no page scrolls sideways, for an owner and an annotator, on a phone and a desktop', async ({ page }) => {
    test.setTimeout(90_000);
    const routes = [
      '/', '/user-settings', '/new', `/dataset/${ds.id}/settings`, `/dataset/${ds.id}/annotation-mode`,
      `/dataset/${ds.id}/annotation-mode?mode=bulk`, `/dataset/${ds.id}/annotation-mode?mode=review`, '/no/such/page',
    ];
    const overflowing: string[] = [];
    for (const user of [OWNER, ds.annotator]) {
      await signInAs(page, user.username, user.password);
      for (const route of routes) {
        await page.setViewportSize(PHONE);
        await page.goto(`${baseUrl()}${route}`);
        await page.waitForLoadState('networkidle');
        await expect(page.locator('.sch-loading')).toHaveCount(0);
        for (const size of [PHONE, DESKTOP]) {
          await page.setViewportSize(size);
          const extra = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          if (extra > 0) overflowing.push(`${user.username} ${size.width}px ${route}: ${extra}px`);
        }
      }
    }
    expect(overflowing).toEqual([]);
  });

  test('main screens look as recorded, light and dark', async ({ page }) => {
    test.setTimeout(90_000);
    const fresh = await createLayoutDataset();
    await signInAs(page, fresh.annotator.username, fresh.annotator.password);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, size, query] of [['focus', DESKTOP, ''], ['bulk', DESKTOP, '?mode=bulk'], ['focus-phone', PHONE, '']] as const) {
        await page.setViewportSize(size);
        await open(page, fresh.id, query);
        await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
        await expect(page.getByTestId('annotation-progress')).toBeVisible();
        await expect(page.getByTestId('my-metrics')).toBeAttached(); // in the progress panel, closed
        await expect(page).toHaveScreenshot(`annotation-${name}-${scheme}.png`, SCREENSHOT);
        if (DOCS_IMAGES && scheme === 'light') await page.screenshot({ path: path.join(DOCS_IMAGES, DOCS_NAMES[name]!) });
      }
    }
  });
});

test('bulk: rows over the width, the confirmation a modal in view, then a toast, a line and an empty form', async ({ page }) => {
  test.setTimeout(60_000);
  const ds = await createLayoutDataset(6);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await open(page, ds.id, '?mode=bulk');
    const first = page.getByTestId('bulk-record').first();
    expect((await first.boundingBox())!.width).toBeGreaterThan(size.width * (size === DESKTOP ? 0.55 : 0.9));
    // The record size toggle.
    const review = first.getByTestId('field-review');
    await expect(review).toHaveClass(/mfe-ann-field--collapsed/);
    await page.getByRole('button', { name: 'Expand records' }).click();
    await expect(review).not.toHaveClass(/mfe-ann-field--collapsed/);
    await page.getByRole('button', { name: 'Collapse records' }).click();

    await page.getByLabel('Select record 1', { exact: true }).check();
    const panel = page.getByTestId('questions-panel');
    await panel.getByRole('button', { name: 'neutral' }).click();
    await page.getByTestId('record-actions').getByRole('button', { name: 'Save as draft' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Apply this answer to 1 record?');
    await expectInViewport(page, dialog);
    expect(await dialog.evaluate((el) => el.matches(':modal'))).toBe(true);
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.locator('.sch-toast').filter({ hasText: '1 record saved as draft' })).toBeVisible();
    await expect(page.getByTestId('bulk-outcome')).toHaveText('1 record saved as draft');
    await expect(panel.getByRole('button', { name: 'neutral' })).toHaveAttribute('aria-pressed', 'false');
  }
});

test('desktop: the actions sit right under a short form, and stay in view under a long one', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const three = await createKeyboardDataset(1);
  await signInAs(page, three.annotator.username, three.annotator.password);
  await open(page, three.id);
  const lastQuestion = (await page.getByTestId('question-rating').boundingBox())!;
  const actions = (await page.getByTestId('record-actions').boundingBox())!;
  expect(actions.y - (lastQuestion.y + lastQuestion.height)).toBeLessThanOrEqual(72);

  // One question: Discard, Save as draft and Submit right under it (Clear and Reset in a small line between).
  const one = await createOneQuestionDataset();
  await signInAs(page, one.annotator.username, one.annotator.password);
  await open(page, one.id);
  const question = (await page.getByTestId('question-sentiment').boundingBox())!;
  const bar = (await page.getByTestId('record-actions').boundingBox())!;
  expect(bar.y).toBeGreaterThan(question.y + question.height);
  expect(bar.y - (question.y + question.height)).toBeLessThanOrEqual(72);

  const long = await createAnnotationDataset(1);
  await signInAs(page, long.annotator.username, long.annotator.password);
  await open(page, long.id);
  await expectInViewport(page, submitButton(page));
});

test('phone: a 5,000-word record scrolls in a box of its own, the first question under it on the first screen; its text still takes spans', async ({ page }) => {
  test.setTimeout(60_000);
  const ds = await createLongFormDataset();
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.setViewportSize(PHONE);
  await open(page, ds.id);
  const pane = page.getByTestId('record-pane');
  const text = pane.getByTestId('span-text-entities');
  await expect(text).toContainText('Article 1. ');

  // Without scrolling the page: the first question, its title and first option, lies above the pinned actions.
  const bar = (await page.getByTestId('record-actions').boundingBox())!;
  const first = page.getByTestId('questions-panel').locator('fieldset[data-question]').first();
  for (const part of [first.locator('legend'), first.getByRole('button').first()]) {
    const box = (await part.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(bar.y);
  }
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // The record scrolls in its own box, a named region the keyboard reaches and scrolls.
  expect(await pane.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeGreaterThan(10_000);
  await expect(page.getByRole('region', { name: 'Record', exact: true })).toHaveAttribute('data-testid', 'record-pane');
  await pane.focus();
  await expect(pane).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect.poll(() => pane.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);

  // Deep in the scrolled box, a word selected by dragging over it becomes a span with its own offsets.
  const full = (await text.textContent())!;
  const start = full.indexOf(' ', 20_000) + 1;
  const end = full.indexOf(' ', start);
  const word = full.slice(start, end).replace(/\.$/, '');
  const wordEnd = start + word.length;
  const rectOf = () => text.evaluate((el, [from, to]) => {
    const range = document.createRange();
    range.setStart(el.firstChild!, from!);
    range.setEnd(el.firstChild!, to!);
    const r = range.getClientRects()[0]!;
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  }, [start, wordEnd]);
  const paneBox = (await pane.boundingBox())!;
  const before = await rectOf();
  await pane.evaluate((el, by) => el.scrollBy(0, by), before.top - paneBox.y - paneBox.height / 2);
  const rect = await rectOf();
  expect(rect.top).toBeGreaterThan(paneBox.y);
  expect(rect.bottom).toBeLessThan(paneBox.y + paneBox.height);
  const y = (rect.top + rect.bottom) / 2;
  await page.mouse.move(rect.left + 1, y);
  await page.mouse.down();
  await page.mouse.move((rect.left + rect.right) / 2, y, { steps: 3 });
  await page.mouse.move(rect.right - 1, y, { steps: 3 });
  await page.mouse.up();
  await expect(page.getByTestId('span-chip')).toHaveText(new RegExp(`^person: “${word}”`));
  const recordId = (await page.getByTestId('focus-record').getAttribute('data-record-id'))!;
  await page.getByTestId('record-actions').getByRole('button', { name: 'Save as draft' }).click();
  await expect.poll(async () => (await responseOf(recordId, ds.annotator.id))?.values?.entities?.value).toEqual([{ start, end: wordEnd, label: 'person' }]);
});

test('a laptop\'s 1280 px: the owner\'s header stays one row with a sort order chosen, every control named and next on the keyboard', async ({ page }) => {
  const ds = await createLayoutDataset(3);
  await signInAs(page, OWNER.username, OWNER.password);
  for (const size of [LAPTOP, DESKTOP]) {
    await page.setViewportSize(size);
    await open(page, ds.id);
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('inserted_at');
    const order = page.getByRole('button', { name: 'Sort order: ascending' });
    await order.click();
    await expect(page.getByRole('button', { name: 'Sort order: descending' })).toHaveAttribute('data-order', 'desc');
    await expect(page).toHaveURL(/desc/);
    const header = page.locator('.mfe-ann-page__header');
    const headerBox = (await header.boundingBox())!;
    expect(headerBox.height, `${size.width} px`).toBeLessThanOrEqual(56);
    await expectInRowAndTabOrder(page, ownerHeaderControls(page, 'Sort order: descending'), headerBox);
  }
});

test('the search field\'s placeholder is whole at 1024, 1280 and 1440 px', async ({ page }) => {
  const ds = await createLayoutDataset(2);
  await signInAs(page, OWNER.username, OWNER.password);
  for (const width of [1024, 1280, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await open(page, ds.id);
    const search = page.getByRole('searchbox', { name: 'Text search' });
    const room = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const text = context.measureText(input.placeholder).width;
      return input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - text;
    });
    expect(room, `${width} px`).toBeGreaterThanOrEqual(0);
  }
});

test('phone: a long dataset name stays on one line of the breadcrumbs, cut with an ellipsis, whole in its tooltip and name', async ({ page }) => {
  const ds = await createOneQuestionDataset();
  const name = `customer-support-tickets-from-the-spring-campaign-${ds.id.slice(0, 8)}`;
  await ownerApi('PATCH', `datasets/${ds.id}`, { name });
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.setViewportSize(PHONE);
  await open(page, ds.id);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
  const current = crumbs.getByText(name, { exact: true });
  await expect(current).toHaveAttribute('title', name);
  await expect(current).toHaveAttribute('aria-current', 'page');
  const home = (await crumbs.getByRole('link', { name: 'Home' }).boundingBox())!;
  const box = (await current.boundingBox())!;
  expect(Math.abs(box.y - home.y)).toBeLessThanOrEqual(2); // one line
  expect((await crumbs.boundingBox())!.height).toBeLessThanOrEqual(30);
  expect(await current.evaluate((el) => [getComputedStyle(el).textOverflow, el.scrollWidth > el.clientWidth])).toEqual(['ellipsis', true]);
  expect((await page.locator('.sch-header').boundingBox())!.height).toBeLessThanOrEqual(60);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  // Its settings page: the name is a link there, cut the same way, "Settings" whole after it.
  await signInAs(page, OWNER.username, OWNER.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/settings`);
  const link = crumbs.getByRole('link', { name });
  await expect(link).toHaveAttribute('title', name);
  const last = crumbs.locator('[aria-current="page"]');
  expect(await last.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(Math.abs((await link.boundingBox())!.y - (await last.boundingBox())!.y)).toBeLessThanOrEqual(2);
});
