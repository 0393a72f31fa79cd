import http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { onServer } from '../fixtures/api.js';
import { createAnnotationDataset, responseOf, type AnnotationDataset } from '../fixtures/annotation-dataset.js';
import { freePort, startScholiaServer, type ScholiaServer } from '../fixtures/scholia-server.js';

/**
 * Scholia's whole web app in an `<iframe>` of another site, as docs/embedding.md's "Inside a frame
 * instead" has a host team do it: the server lists the host's origin in SCHOLIA_FRAME_ANCESTORS, the
 * host page is nothing but the frame, and the annotator signs in inside it. The server runs on
 * 127.0.0.1, the host pages on localhost: another site, so the frame is a third-party one, which
 * the test's Chromium gives no storage (as with third-party cookies blocked): the sign-in holds in
 * the page's memory.
 */

/** A page of a host's own: a heading and Scholia's annotation page in a frame. */
function hostPage(frameUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Intranet</title></head>
<body><h1>Intranet</h1><iframe id="scholia" title="Scholia" src="${frameUrl}" style="width: 1100px; height: 760px"></iframe></body></html>`;
}

interface Host {
  origin: string;
  /** Serves the host page framing this address. */
  frame(url: string): void;
  close(): Promise<void>;
}

async function startHost(): Promise<Host> {
  let page = hostPage('about:blank');
  const server = http.createServer((_, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(page);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, 'localhost', resolve));
  return {
    origin: `http://localhost:${port}`,
    frame: (url) => { page = hostPage(url); },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let listedHost: Host;
let unlistedHost: Host;
let scholia: ScholiaServer;
let ds: AnnotationDataset;

test.beforeAll(async () => {
  // A server start of its own: on a busy machine it takes longer than a test's time.
  test.setTimeout(150_000);
  listedHost = await startHost();
  unlistedHost = await startHost();
  scholia = await startScholiaServer({ SCHOLIA_FRAME_ANCESTORS: `'self' ${listedHost.origin}` }, { timeoutMs: 120_000 });
  ds = await onServer(scholia.baseUrl, () => createAnnotationDataset(3));
  const annotationPage = `${scholia.baseUrl}/dataset/${ds.id}/annotation-mode`;
  listedHost.frame(annotationPage);
  unlistedHost.frame(annotationPage);
});

test.afterAll(async () => {
  await scholia?.stop();
  await listedHost?.close();
  await unlistedHost?.close();
});

/** The frame's own document, once the browser has settled what it shows. */
async function scholiaFrame(page: Page) {
  const iframe = page.locator('#scholia');
  await expect(iframe).toBeAttached();
  return (await iframe.elementHandle())!.contentFrame();
}

test("a listed origin shows the web app in its frame: the annotator signs in there and the answer is stored under them", async ({ page }) => {
  const frameDocument = page.waitForResponse((response) => response.url().startsWith(`${scholia.baseUrl}/dataset/`));
  await page.goto(listedHost.origin);
  // X-Frame-Options cannot name the host: sent along, older browsers would refuse the frame.
  expect((await frameDocument).headers()['x-frame-options']).toBeUndefined();

  const frame = page.frameLocator('#scholia');
  await frame.getByLabel('Username').fill(ds.annotator.username);
  await frame.getByLabel('Password').fill(ds.annotator.password);
  await frame.getByRole('button', { name: 'Sign in', exact: true }).click();

  // Signed in, the frame goes on to the page it was given.
  await expect(frame.getByTestId('record-position')).toHaveText('Record 1 of 3', { timeout: 15_000 });
  await expect(frame.getByTestId('focus-record')).toHaveAttribute('data-record-id', ds.recordIds[0]);
  await frame.getByRole('button', { name: 'NEGATIVE' }).click();
  await frame.getByRole('button', { name: 'Submit' }).click();
  await expect(frame.getByTestId('record-position')).toHaveText('Record 2 of 3');

  const response = await onServer(scholia.baseUrl, () => responseOf(ds.recordIds[0], ds.annotator.id));
  expect(response?.status).toBe('submitted');
  expect(response?.values?.sentiment?.value).toBe('negative');

  // The shortcuts act inside the frame once it has the focus; the toasts show there.
  await frame.getByTestId('focus-record').click();
  await page.keyboard.press('3');
  await page.keyboard.press('Control+Enter');
  await expect(frame.getByTestId('record-position')).toHaveText('Record 3 of 3');
  await expect.poll(async () => (await onServer(scholia.baseUrl, () => responseOf(ds.recordIds[1], ds.annotator.id)))?.values?.sentiment?.value).toBe('neutral');
  await page.keyboard.press('Control+z');
  await expect(frame.getByText('The last answer was undone.')).toBeInViewport();
  await expect(frame.getByTestId('record-position')).toHaveText('Record 2 of 3');
});

test('an origin not listed in SCHOLIA_FRAME_ANCESTORS gets its frame refused', async ({ page }) => {
  const refused = page.waitForEvent('console', (message) => message.text().includes('frame-ancestors'));
  await page.goto(unlistedHost.origin);
  expect((await refused).text()).toContain(`Framing '${scholia.baseUrl}/' violates`);
  // Chromium puts its own error page in the frame's place: nothing of Scholia runs there.
  const frame = await scholiaFrame(page);
  await expect.poll(() => frame?.url()).toBe('chrome-error://chromewebdata/');
  await expect(page.frameLocator('#scholia').getByLabel('Username')).toHaveCount(0);
});
