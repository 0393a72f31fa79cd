import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { addToWorkspace, baseUrl, createToken, createUser, onServer, ownerApi, signInAs } from '../fixtures/api.js';
import { createAnnotationDataset, responseOf, type AnnotationDataset } from '../fixtures/annotation-dataset.js';
import { lowContrastTexts } from '../fixtures/contrast.js';
import { startScholiaServer, type ScholiaServer } from '../fixtures/scholia-server.js';

const EXAMPLES_DIR = path.resolve(import.meta.dirname, '../../examples');

/** The example hosts: each one a page on its own origin with the same test ids, its back end serve.mjs. */
const EXAMPLE_HOSTS = [
  // No build step and no React: the remote brings its own.
  { name: 'single-spa host (examples/host-single-spa)', dir: 'host-single-spa', build: false, sharesReact: false },
  // React + rspack + Module Federation, sharing its React with the remote: built as its README says.
  { name: 'React host (examples/host-react)', dir: 'host-react', build: true, sharesReact: true },
] as const;
type ExampleHost = (typeof EXAMPLE_HOSTS)[number];

function hostOrigin(): string {
  const origin = process.env.SCHOLIA_E2E_EMBED_HOST_ORIGIN;
  if (!origin) throw new Error('SCHOLIA_E2E_EMBED_HOST_ORIGIN is not set: run through playwright.config.ts');
  return origin;
}

function buildExampleHost(example: ExampleHost): void {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], { cwd: path.join(EXAMPLES_DIR, example.dir), encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`${example.name}: npm run build failed\n${build.stdout}${build.stderr}`);
}

/** An example host on its own origin, its back end signing in the dataset's annotator. */
async function startExampleHost(example: ExampleHost, ds: AnnotationDataset, env: Record<string, string>): Promise<ChildProcess> {
  const host = spawn(process.execPath, [path.join(EXAMPLES_DIR, example.dir, 'serve.mjs')], {
    env: {
      ...process.env, PORT: new URL(hostOrigin()).port, HOST: 'localhost', SCHOLIA_URL: baseUrl(),
      SCHOLIA_USERNAME: ds.annotator.username, SCHOLIA_PASSWORD: ds.annotator.password, SCHOLIA_DATASET_ID: ds.id, ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    host.stdout!.once('data', () => resolve());
    host.once('exit', (code) => reject(new Error(`example host exited with ${code}`)));
  });
  return host;
}

/** Every host uses the same port: the next test's host starts only once this one has let it go. */
async function stopExampleHost(host: ChildProcess): Promise<void> {
  if (host.exitCode !== null || host.signalCode !== null) return;
  const exited = new Promise((resolve) => host.once('exit', resolve));
  host.kill('SIGTERM');
  await exited;
}

/**
 * Runs `use` with the example host serving the dataset's annotator (and, on its two-annotators
 * page, the second one `env` names as `SCHOLIA_SECOND_*`), and stops it after.
 */
/** Hosts still running: a test that times out never reaches its `finally`, and its host would keep the port. */
const runningHosts = new Set<Awaited<ReturnType<typeof startExampleHost>>>();
test.afterEach(async () => {
  for (const host of runningHosts) await stopExampleHost(host);
  runningHosts.clear();
});

async function withExampleHost(example: ExampleHost, ds: AnnotationDataset, use: () => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const host = await startExampleHost(example, ds, env);
  runningHosts.add(host);
  try {
    await use();
  } finally {
    runningHosts.delete(host);
    await stopExampleHost(host);
  }
}

/** The remote's own copy of React, as its manifest lists the files of each shared module. */
async function remoteReactFiles(): Promise<string[]> {
  type Manifest = { shared: { name: string; assets: { js: { sync: string[]; async: string[] } } }[] };
  const manifest = (await (await fetch(`${baseUrl()}/remotes/mfe-annotation/mf-manifest.json`)).json()) as Manifest;
  return manifest.shared.filter((s) => /^react(-dom)?(\/|$)/.test(s.name)).flatMap((s) => [...s.assets.js.sync, ...s.assets.js.async]);
}

/** A second Scholia server for this file's tests of two servers: one per worker, stopped after the file. */
let secondServer: Promise<ScholiaServer> | undefined;
test.afterAll(async () => {
  const server = await secondServer?.catch(() => undefined);
  secondServer = undefined;
  await server?.stop();
});

/**
 * Starts the second server before the tests of the describe block calling this, on a time of its
 * own: on a busy machine a start takes long, and a test's timeout must not pay for it. A server
 * that does not start fails those tests with its reason (its exit or its log), never a hang.
 */
function useSecondServer(): () => ScholiaServer {
  let started: ScholiaServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    secondServer ??= startScholiaServer({ SCHOLIA_CORS_ORIGINS: hostOrigin() }, { timeoutMs: 120_000 });
    started = await secondServer.catch((error: unknown) => {
      throw new Error(`the second Scholia server did not start: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  return () => {
    if (!started) throw new Error('the second Scholia server is not running');
    return started;
  };
}

/** The bearer token of each API request the page sent, by the server's origin. */
function recordBearers(page: Page): Map<string, Set<string>> {
  const bearers = new Map<string, Set<string>>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    const authorization = request.headers().authorization;
    if (!url.pathname.startsWith('/api/v1/') || !authorization) return;
    if (!bearers.has(url.origin)) bearers.set(url.origin, new Set());
    bearers.get(url.origin)!.add(authorization);
  });
  return bearers;
}

/** Everything the page keeps in the browser's storage, as one string. */
const browserStorage = (page: Page) => page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));

const hostEvents = async (page: Page) =>
  (await page.getByTestId('host-events').locator('li').allTextContents()).map((text) => JSON.parse(text) as Record<string, unknown>);

for (const example of EXAMPLE_HOSTS) {
  test.describe(example.name, () => {
    if (example.build) test.beforeAll(() => buildExampleHost(example));

    test('annotates through the remote from another origin, with CORS and no proxy; events reach the host, its keys stay its own', async ({ page }) => {
      const ds = await createAnnotationDataset(2);
      await withExampleHost(example, ds, async () => {
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        const serverRequests: string[] = [];
        page.on('request', (request) => { if (request.url().startsWith(baseUrl())) serverRequests.push(request.url()); });

        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });
        // Everything came straight from the server's origin: the manifest, the container, the API.
        expect(serverRequests.some((url) => url.endsWith('/remotes/mfe-annotation/mf-manifest.json'))).toBe(true);
        expect(serverRequests.some((url) => url.includes('/api/v1/'))).toBe(true);
        expect(new URL(page.url()).origin).not.toBe(new URL(baseUrl()).origin);
        // A host sharing its React: the remote renders with it and never fetches its own copy.
        const reactFetched = (await remoteReactFiles()).filter((file) => serverRequests.some((url) => url.endsWith(`/remotes/mfe-annotation/${file}`)));
        expect(reactFetched.length > 0).toBe(!example.sharesReact);
        // The remote leaves the host's document language alone.
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
        await expect.poll(async () => (await hostEvents(page)).find((e) => e.type === 'record-shown')).toEqual(
          { type: 'record-shown', datasetId: ds.id, recordId: ds.recordIds[0], status: 'pending' });

        // The host's own keys stay the host's: no draft, no next record.
        await page.locator('#host-save').focus();
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Control+s');
        await expect(page.getByTestId('host-status')).toHaveText('Portal layout saved');
        await page.waitForTimeout(500);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/);
        expect(await responseOf(ds.recordIds[0]!, ds.annotator.id)).toBeUndefined();

        await expect(page.getByRole('button', { name: 'POSITIVE' })).toHaveAttribute('aria-pressed', 'true');
        await page.getByRole('button', { name: 'Submit' }).click();
        await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
        const stored = await responseOf(ds.recordIds[0]!, ds.annotator.id);
        expect(stored?.status).toBe('submitted');
        expect(stored?.values?.sentiment?.value).toBe('positive');
        await expect.poll(async () => (await hostEvents(page)).find((e) => e.type === 'response-submitted')).toEqual(
          { type: 'response-submitted', datasetId: ds.id, recordId: ds.recordIds[0], status: 'submitted', keptOffline: false });
        await expect.poll(async () => (await hostEvents(page)).filter((e) => e.type === 'progress-changed').length).toBeGreaterThan(0);

        // Inside the remote its shortcuts act: ← goes back to the first record.
        await page.getByTestId('annotation-root').click({ position: { x: 2, y: 2 } });
        await page.keyboard.press('ArrowLeft');
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/);
        expect(errors).toEqual([]);
      });
    });

    test("keys the remote acts on stop there: the host's keydown listeners on its body, document and window never get them", async ({ page }) => {
      const ds = await createAnnotationDataset(2, { suggestions: false });
      await withExampleHost(example, ds, async () => {
        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });
        // A host's shortcuts, as a team writes them: listeners for every key, wherever it was pressed.
        await page.evaluate(() => {
          const seen: string[] = [];
          (window as unknown as { hostKeys: string[] }).hostKeys = seen;
          // The modifier's own press is nobody's shortcut: the host sees it, as it sees any key the remote leaves alone.
          const log = (where: string) => (event: KeyboardEvent) => {
            if (event.key !== 'Control') seen.push(`${where} ${event.ctrlKey ? 'Control+' : ''}${event.key}`);
          };
          window.addEventListener('keydown', log('window'));
          document.addEventListener('keydown', log('document'));
          document.body.addEventListener('keydown', log('body'));
        });
        const hostKeys = () => page.evaluate(() => (window as unknown as { hostKeys: string[] }).hostKeys);
        const root = page.getByTestId('annotation-root');
        await root.click({ position: { x: 2, y: 2 } });
        // A digit answers the question, Ctrl+S saves the draft (and moves on), ← goes back, Ctrl+Enter submits.
        await page.keyboard.press('2');
        await expect(root.getByRole('button', { name: 'NEGATIVE' })).toHaveAttribute('aria-pressed', 'true');
        await page.keyboard.press('Control+s');
        await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.status).toBe('draft');
        await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
        await page.keyboard.press('ArrowLeft');
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/);
        await page.keyboard.press('Control+Enter');
        await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.status).toBe('submitted');
        expect((await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.sentiment?.value).toBe('negative');
        expect(await hostKeys()).toEqual([]);
        // The host's page saw none of them; a key the remote leaves alone is the host's.
        await page.keyboard.press('x');
        expect(await hostKeys()).toEqual(['body x', 'document x', 'window x']);
      });
    });

    test('two annotators one after the other in one tab each reopen at their own record', async ({ page }) => {
      const ds = await createAnnotationDataset(2, { suggestions: false });
      const { workspace_id } = await ownerApi<{ workspace_id: string }>('GET', `datasets/${ds.id}`);
      const second = await createUser('annotator');
      await addToWorkspace(workspace_id, second.id);
      await withExampleHost(example, ds, async () => {
        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });
        await page.getByTestId('annotation-root').click({ position: { x: 2, y: 2 } });
        await page.keyboard.press('ArrowRight');
        await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
        await expect.poll(() => page.evaluate(() => Object.entries(sessionStorage).filter(([key]) => key.startsWith('scholia.annotation.position:')).map(([, ids]) => ids))).toEqual([JSON.stringify([ds.recordIds[1]])]);

        // The host's back end signs the second annotator in, in this tab: their queue starts at its first record.
        const secondToken = await createToken(second.username, second.password);
        await page.route(`${hostOrigin()}/session.json`, (route) => route.fulfill({ json: { serverUrl: baseUrl(), token: secondToken, datasetId: ds.id } }));
        await page.reload();
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });
        await expect.poll(async () => (await hostEvents(page)).filter((e) => e.type === 'record-shown').map((e) => e.recordId)).toEqual([ds.recordIds[0]]);

        // The first annotator again: back at the record they left.
        await page.unroute(`${hostOrigin()}/session.json`);
        await page.reload();
        await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/, { timeout: 20_000 });
      });
    });

    test("the host page's aggressive CSS stops at the remote's root: its buttons stay visible and keep their size and colour", async ({ page }) => {
      const ds = await createAnnotationDataset(1);
      await withExampleHost(example, ds, async () => {
        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/, { timeout: 20_000 });
        await page.addStyleTag({ content: '* { color: rgb(255, 0, 0); font-size: 40px; } button { display: none; } p, span { visibility: hidden; }' });

        // The host's own button obeys its CSS; the remote's do not.
        await expect(page.locator('#host-save')).toBeHidden();
        const submit = page.getByRole('button', { name: 'Submit' });
        await expect(submit).toBeVisible();
        await expect(page.getByRole('button', { name: 'POSITIVE' })).toBeVisible();
        await expect(page.getByTestId('record-position')).toBeVisible();
        const style = await submit.evaluate((button) => {
          const computed = getComputedStyle(button);
          return { color: computed.color, fontSize: computed.fontSize };
        });
        expect(style.color).not.toBe('rgb(255, 0, 0)');
        expect(style.fontSize).not.toBe('40px');
        // Still usable: the suggested answer is chosen and goes out.
        await expect(page.getByRole('button', { name: 'POSITIVE' })).toHaveAttribute('aria-pressed', 'true');
        await submit.click();
        await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.status, { timeout: 15_000 }).toBe('submitted');
      });
    });

    test('a server outage reaches the host as load-failed and the host shows its own fallback', async ({ page }) => {
      const ds = await createAnnotationDataset(1);
      await withExampleHost(example, ds, async () => {
        // The remote's files still come; every API call meets a failing gateway.
        await page.route(`${baseUrl()}/api/**`, (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('host-fallback')).toBeVisible({ timeout: 25_000 });
        const failed = (await hostEvents(page)).find((e) => e.type === 'load-failed');
        expect(failed).toMatchObject({ type: 'load-failed', datasetId: ds.id, status: 502 });
        expect(typeof failed?.message).toBe('string');
      });
    });

    test('in a host element 360 to 760 px wide and of fixed height, the page stays inside it: the record scrolls there and every question stays clickable', async ({ page }) => {
      test.setTimeout(60_000);
      const ds = await createAnnotationDataset(1, { suggestions: false, longText: true });
      await withExampleHost(example, ds, async () => {
        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/, { timeout: 20_000 });
        const element = page.locator('#annotation');
        const root = page.getByTestId('annotation-root');
        for (const [width, option] of [[360, 'NEGATIVE'], [560, 'NEUTRAL'], [760, 'POSITIVE']] as const) {
          await page.addStyleTag({ content: `#annotation { width: ${width}px; height: 560px; min-height: 0; }` });
          await expect.poll(async () => (await element.boundingBox())?.width).toBe(width);
          // Nothing of the remote spills out of its element: the record scrolls inside it.
          const overflow = await element.evaluate((node) => ({ height: node.scrollHeight - node.clientHeight, width: node.scrollWidth - node.clientWidth }));
          expect(overflow).toEqual({ height: 0, width: 0 });
          const box = (await element.boundingBox())!;
          const rootBox = (await root.boundingBox())!;
          expect(rootBox.y + rootBox.height).toBeLessThanOrEqual(box.y + box.height + 1);
          // Each option of the first question takes its own click: nothing lies over it.
          for (const name of ['POSITIVE', 'NEGATIVE', 'NEUTRAL']) {
            const button = root.getByRole('button', { name, exact: true });
            // Polled: the long record's text may still be laying out after the width changed.
            await expect
              .poll(async () => {
                await button.scrollIntoViewIfNeeded();
                return button.evaluate((node) => {
                  const r = node.getBoundingClientRect();
                  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                  return top === node || node.contains(top);
                });
              }, { message: `${name} at ${width} px` })
              .toBe(true);
          }
          await root.getByRole('button', { name: option, exact: true }).click();
          await expect(root.getByRole('button', { name: option, exact: true })).toHaveAttribute('aria-pressed', 'true');
        }
        // Submit stays inside the element and sends the last choice.
        const submit = root.getByRole('button', { name: 'Submit' });
        const submitBox = (await submit.boundingBox())!;
        const box = (await element.boundingBox())!;
        expect(submitBox.y + submitBox.height).toBeLessThanOrEqual(box.y + box.height + 1);
        await submit.click();
        await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.sentiment?.value).toBe('positive');
      });
    });

    for (const theme of ['light', 'dark'] as const) {
      test(`the remote brings its whole look in the ${theme} theme: buttons, the active mode, option chips, links and focus rings, all readable`, async ({ page }) => {
        const ds = await createAnnotationDataset(1);
        await withExampleHost(example, ds, async () => {
          await page.goto(`${hostOrigin()}/?theme=${theme}`);
          await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/, { timeout: 20_000 });
          const root = page.getByTestId('annotation-root');
          const tokens = theme === 'light'
            ? { primary: 'rgb(62, 92, 201)', primaryText: 'rgb(255, 255, 255)', surface: 'rgb(255, 255, 255)' }
            : { primary: 'rgb(138, 164, 255)', primaryText: 'rgb(13, 16, 32)', surface: 'rgb(30, 33, 38)' };
          const look = (name: string, exact = true) => root.getByRole('button', { name, exact }).evaluate((node) => {
            const style = getComputedStyle(node);
            return { background: style.backgroundColor, color: style.color, radius: style.borderRadius };
          });
          // The primary action and the active mode are Scholia's buttons, not the browser's.
          expect(await look('Submit')).toEqual({ background: tokens.primary, color: tokens.primaryText, radius: '6px' });
          const focusMode = root.getByRole('button', { name: 'Focus', exact: true });
          await expect(focusMode).toHaveAttribute('aria-pressed', 'true');
          // The active mode is raised on the surface and underlined in the primary colour (the UI kit's segmented control).
          const active = await focusMode.evaluate((node) => ({ background: getComputedStyle(node).backgroundColor, underline: getComputedStyle(node).boxShadow }));
          expect(active.background).toBe(tokens.surface);
          expect(active.underline).toContain(tokens.primary);
          expect((await look('Bulk')).background).not.toBe(tokens.surface);
          // The chosen option is marked in the primary colour; links are in it too.
          await expect(root.getByRole('button', { name: 'POSITIVE' })).toHaveAttribute('aria-pressed', 'true');
          expect((await look('POSITIVE', false)).background).toBe(tokens.primary);
          const links = await root.locator('a, .mfe-ann-link').evaluateAll((nodes) => nodes.map((node) => getComputedStyle(node).color));
          expect(links.length).toBeGreaterThan(0);
          for (const colour of links) expect(colour).toBe(tokens.primary);
          // A focus ring on the control the keyboard reached.
          await root.getByRole('button', { name: 'NEGATIVE' }).focus();
          await page.keyboard.press('Tab');
          const ring = await page.evaluate(() => {
            const style = getComputedStyle(document.activeElement!);
            return { style: style.outlineStyle, width: style.outlineWidth };
          });
          expect(ring).toEqual({ style: 'solid', width: '2px' });
          // Every text of the remote reads against what is behind it (WCAG AA), by our measure and by axe's own rule.
          expect(await lowContrastTexts(root)).toEqual([]);
          // The custom field's sandboxed frame runs no script, so axe cannot look inside it (it would wait for it).
          const axe = await new AxeBuilder({ page }).include('[data-testid="annotation-root"]').exclude('iframe[sandbox]').withRules(['color-contrast']).analyze();
          expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
        });
      });
    }

    test('with Scholia unreachable as the page opens, the host shows its own fallback', async ({ page }) => {
      const ds = await createAnnotationDataset(1);
      await withExampleHost(example, ds, async () => {
        // Not even the remote's manifest and files come.
        await page.route(`${baseUrl()}/**`, (route) => route.abort('connectionrefused'));
        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('host-fallback')).toBeVisible({ timeout: 20_000 });
      });
    });

    test('a failed records search shows a notice with Retry where the record would be and reaches the host as load-failed', async ({ page }) => {
      const ds = await createAnnotationDataset(2, { suggestions: false });
      await withExampleHost(example, ds, async () => {
        // Only the search of the annotator's queue fails; the dataset and its questions load.
        const search = `${baseUrl()}/api/v1/me/datasets/${ds.id}/records/search**`;
        await page.route(search, (route) => route.fulfill({ status: 502, body: 'Bad Gateway' }));
        await page.goto(`${hostOrigin()}/`);
        const notice = page.getByTestId('records-load-error');
        await expect(notice).toHaveText(/The records could not be loaded \(HTTP 502\)/, { timeout: 20_000 });
        await expect.poll(async () => (await hostEvents(page)).find((e) => e.type === 'load-failed')).toMatchObject(
          { type: 'load-failed', datasetId: ds.id, status: 502 });
        // Retry once the search works again: the queue is back.
        await page.unroute(search);
        await notice.getByRole('button', { name: 'Retry' }).click();
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/);
        await expect(notice).toBeHidden();
      });
    });

    test("the dark theme colours the remote's root only: the host's document keeps its own colours", async ({ page }) => {
      const ds = await createAnnotationDataset(1);
      await withExampleHost(example, ds, async () => {
        await page.goto(`${hostOrigin()}/?theme=dark`);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 1/, { timeout: 20_000 });
        const colours = await page.evaluate(() => {
          const root = document.querySelector<HTMLElement>('.mfe-ann-embed')!;
          const html = document.documentElement;
          return {
            root: { background: getComputedStyle(root).backgroundColor, color: getComputedStyle(root).color, theme: root.dataset.theme },
            html: { background: getComputedStyle(html).backgroundColor, theme: html.dataset.theme ?? null, style: html.getAttribute('style') },
            body: getComputedStyle(document.body).backgroundColor,
          };
        });
        // themeTokens.dark: bg #15171b, text #e8eaed.
        expect(colours.root).toEqual({ background: 'rgb(21, 23, 27)', color: 'rgb(232, 234, 237)', theme: 'dark' });
        expect(colours.html).toEqual({ background: 'rgba(0, 0, 0, 0)', theme: null, style: null });
        expect(colours.body).toBe('rgba(0, 0, 0, 0)');
      });
    });

    test.describe('with a second server', () => {
      const runningSecondServer = useSecondServer();

      test('two annotators on one page, each on their own server, store their answers under their own user there', async ({ page }) => {
        test.setTimeout(60_000);
        const server = runningSecondServer();
        const first = await createAnnotationDataset(2, { suggestions: false });
        const second = await onServer(server.baseUrl, () => createAnnotationDataset(2, { suggestions: false }));
        const env = {
          SCHOLIA_SECOND_URL: server.baseUrl, SCHOLIA_SECOND_USERNAME: second.annotator.username,
          SCHOLIA_SECOND_PASSWORD: second.annotator.password, SCHOLIA_SECOND_DATASET_ID: second.id,
        };
        await withExampleHost(example, first, async () => {
          const errors: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          const bearers = recordBearers(page);
          await page.goto(`${hostOrigin()}/two-annotators.html`);
          const slotA = page.getByTestId('slot-first');
          const slotB = page.getByTestId('slot-second');
          await expect(slotA.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });
          await expect(slotB.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });

          await slotA.getByRole('button', { name: 'POSITIVE' }).click();
          await slotA.getByRole('button', { name: 'Submit' }).click();
          await expect(slotA.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
          await slotB.getByRole('button', { name: 'NEGATIVE' }).click();
          await slotB.getByRole('button', { name: 'Submit' }).click();
          await expect(slotB.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
          // Each answer is on its annotator's server, under that annotator, with the answer given there.
          await expect.poll(async () => (await responseOf(first.recordIds[0]!, first.annotator.id))?.values?.sentiment?.value).toBe('positive');
          await expect.poll(() => onServer(server.baseUrl, async () => (await responseOf(second.recordIds[0]!, second.annotator.id))?.values?.sentiment?.value)).toBe('negative');
          // And then the first annotator's next answer still goes to the first server as the first annotator.
          await slotA.getByRole('button', { name: 'NEUTRAL' }).click();
          await slotA.getByRole('button', { name: 'Submit' }).click();
          await expect.poll(async () => (await responseOf(first.recordIds[1]!, first.annotator.id))?.values?.sentiment?.value).toBe('neutral');
          expect(await onServer(server.baseUrl, () => responseOf(second.recordIds[1]!, second.annotator.id))).toBeUndefined();

          // One annotator's token per server, never the other's; none of them kept in the browser.
          const [tokenA, tokenB] = [bearers.get(new URL(baseUrl()).origin), bearers.get(new URL(server.baseUrl).origin)];
          expect(tokenA?.size).toBe(1);
          expect(tokenB?.size).toBe(1);
          expect([...tokenA!][0]).not.toBe([...tokenB!][0]);
          const stored = await browserStorage(page);
          for (const bearer of [...tokenA!, ...tokenB!]) expect(stored).not.toContain(bearer.replace(/^Bearer /, ''));
          expect(errors).toEqual([]);
        }, env);
      });
    });

    test('two tabs with two annotators each store their answers under their own user', async ({ page, context }) => {
      const ds = await createAnnotationDataset(2, { suggestions: false });
      const { workspace_id } = await ownerApi<{ workspace_id: string }>('GET', `datasets/${ds.id}`);
      const second = await createUser('annotator');
      await addToWorkspace(workspace_id, second.id);
      await withExampleHost(example, ds, async () => {
        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });
        // A second tab of the same browser, where the host's back end signed the second annotator in.
        const secondTab = await context.newPage();
        const secondToken = await createToken(second.username, second.password);
        await secondTab.route(`${hostOrigin()}/session.json`, (route) => route.fulfill({ json: { serverUrl: baseUrl(), token: secondToken, datasetId: ds.id } }));
        await secondTab.goto(`${hostOrigin()}/`);
        await expect(secondTab.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });

        await page.getByRole('button', { name: 'POSITIVE' }).click();
        await page.getByRole('button', { name: 'Submit' }).click();
        await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
        await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.sentiment?.value).toBe('positive');
        expect(await responseOf(ds.recordIds[0]!, second.id)).toBeUndefined();

        await secondTab.getByRole('button', { name: 'NEGATIVE' }).click();
        await secondTab.getByRole('button', { name: 'Submit' }).click();
        await expect.poll(async () => (await responseOf(ds.recordIds[0]!, second.id))?.values?.sentiment?.value).toBe('negative');
        expect((await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.sentiment?.value).toBe('positive');
        expect(await browserStorage(secondTab)).not.toContain(secondToken);
      });
    });

    test('an answer kept while the server was down goes out by itself once it is back, with no online event and no reload', async ({ page }) => {
      const ds = await createAnnotationDataset(2, { suggestions: false });
      await withExampleHost(example, ds, async () => {
        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });
        // The server goes down; the network (and the browser's onLine) stays up.
        await page.route(`${baseUrl()}/api/**`, (route) => route.abort('connectionrefused'));
        await page.getByRole('button', { name: 'POSITIVE' }).click();
        await page.getByRole('button', { name: 'Submit' }).click();
        await expect.poll(async () => (await hostEvents(page)).find((e) => e.type === 'response-submitted')).toEqual(
          { type: 'response-submitted', datasetId: ds.id, recordId: ds.recordIds[0], status: 'submitted', keptOffline: true });
        expect(await page.evaluate(() => navigator.onLine)).toBe(true);
        expect(await responseOf(ds.recordIds[0]!, ds.annotator.id)).toBeUndefined();
        // Back: the kept answer goes out under its annotator, the page untouched meanwhile.
        await page.unroute(`${baseUrl()}/api/**`);
        await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.status, { timeout: 20_000 }).toBe('submitted');
        expect((await responseOf(ds.recordIds[0]!, ds.annotator.id))?.values?.sentiment?.value).toBe('positive');
      });
    });

    test("two annotators in one browser never mix offline answers: one's answer kept offline is sent only when that annotator is back", async ({ page, context }) => {
      const ds = await createAnnotationDataset(2, { suggestions: false });
      const { workspace_id } = await ownerApi<{ workspace_id: string }>('GET', `datasets/${ds.id}`);
      const second = await createUser('annotator');
      await addToWorkspace(workspace_id, second.id);
      await withExampleHost(example, ds, async () => {
        await page.goto(`${hostOrigin()}/`);
        await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });
        await page.waitForLoadState('networkidle'); // offline once every file of the screen is in
        await context.setOffline(true);
        await page.getByRole('button', { name: 'POSITIVE' }).click();
        await page.getByRole('button', { name: 'Submit' }).click();
        await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
        await expect.poll(async () => (await hostEvents(page)).find((e) => e.type === 'response-submitted')).toEqual(
          { type: 'response-submitted', datasetId: ds.id, recordId: ds.recordIds[0], status: 'submitted', keptOffline: true });
        await page.close();

        // The host's back end now signs the second annotator in, in the same browser, back online.
        const secondSession = { serverUrl: baseUrl(), token: await createToken(second.username, second.password), datasetId: ds.id };
        await context.route(`${hostOrigin()}/session.json`, (route) => route.fulfill({ json: secondSession }));
        await context.setOffline(false);
        const secondPage = await context.newPage();
        await secondPage.goto(`${hostOrigin()}/`);
        await expect(secondPage.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 20_000 });
        await secondPage.waitForTimeout(1500);
        expect(await responseOf(ds.recordIds[0]!, second.id)).toBeUndefined();
        expect(await responseOf(ds.recordIds[0]!, ds.annotator.id)).toBeUndefined();

        // The first annotator again: the kept answer goes out, under that annotator only.
        await context.unroute(`${hostOrigin()}/session.json`);
        await secondPage.reload();
        await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.status, { timeout: 15_000 }).toBe('submitted');
        expect(await responseOf(ds.recordIds[0]!, second.id)).toBeUndefined();
      });
    });
  });
}

test("in Scholia's own web app, two annotators in one browser never mix offline answers: one user's kept answer waits for that user", async ({ page, context }) => {
  const ds = await createAnnotationDataset(2, { suggestions: false });
  const { workspace_id } = await ownerApi<{ workspace_id: string }>('GET', `datasets/${ds.id}`);
  const second = await createUser('annotator');
  await addToWorkspace(workspace_id, second.id);
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  await expect(page.getByTestId('record-position')).toHaveText(/Record 1 of 2/, { timeout: 15_000 });

  await page.waitForLoadState('networkidle'); // offline once every file of the screen is in
  await context.setOffline(true);
  await page.getByRole('button', { name: 'POSITIVE' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('record-position')).toHaveText(/Record 2 of 2/);
  // Another tab signs the second annotator in (the browser's storage is shared) while this one is offline.
  const secondToken = await createToken(second.username, second.password);
  await page.evaluate((token) => localStorage.setItem('scholia.token', token), secondToken);
  await context.setOffline(false);
  await page.waitForTimeout(1500);
  expect(await responseOf(ds.recordIds[0]!, second.id)).toBeUndefined();
  expect(await responseOf(ds.recordIds[0]!, ds.annotator.id)).toBeUndefined();

  // The second annotator's own screen sends nothing of the first one's either.
  await page.reload();
  await expect(page.getByTestId('record-position')).toBeVisible({ timeout: 15_000 });
  await page.waitForTimeout(1000);
  expect(await responseOf(ds.recordIds[0]!, second.id)).toBeUndefined();

  // Back as the first annotator: the kept answer goes out, under that annotator only.
  await signInAs(page, ds.annotator.username, ds.annotator.password);
  await page.goto(`${baseUrl()}/dataset/${ds.id}/annotation-mode`);
  await expect.poll(async () => (await responseOf(ds.recordIds[0]!, ds.annotator.id))?.status, { timeout: 15_000 }).toBe('submitted');
  expect(await responseOf(ds.recordIds[0]!, second.id)).toBeUndefined();
});

test('a host whose React in use is not 19 gets a clear version error from the remote instead of a broken screen', async ({ page }) => {
  // A page of the server's own origin with nothing of Scholia's app in it.
  await page.goto(`${baseUrl()}/remotes/mfe-annotation/mf-manifest.json`);
  const outcome = await page.evaluate(async (remoteEntry) => {
    await new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = remoteEntry;
      script.onload = resolve;
      script.onerror = reject;
      document.head.append(script);
    });
    type Container = { init(scope: object): Promise<void>; get(module: string): Promise<() => unknown> };
    const container = (window as unknown as { mfe_annotation: Container }).mfe_annotation;
    const react18 = { version: '18.3.1' };
    // The host's React 18, already rendering the host: the one copy the page may have.
    await container.init({
      react: { '18.3.1': { get: () => Promise.resolve(() => react18), loaded: 1, from: 'partner-host', scope: ['default'],
        shareConfig: { singleton: true, requiredVersion: '^18.0.0' } } },
    });
    try {
      (await container.get('./lifecycles'))();
      return 'loaded';
    } catch (error) {
      return (error as Error).message;
    }
  }, `${baseUrl()}/remotes/mfe-annotation/remoteEntry.js`);
  expect(outcome).toMatch(/Version 18\.3\.1 from partner-host of shared singleton module react does not satisfy the requirement of mfe_annotation which needs \^19\.0\.0/);
});
