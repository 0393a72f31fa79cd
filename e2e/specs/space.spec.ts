import { expect, test } from '@playwright/test';
import { FAKE_HUB_OAUTH_USERNAME, startE2eFakeHub, type E2eFakeHub } from '../fixtures/fake-hub.js';
import { startScholiaServer, type ScholiaServer } from '../fixtures/scholia-server.js';

/**
 * The hub-hosted variant: a second server started with a Space's environment (SPACE_ID, no
 * persistent storage, share-your-progress on) and "Sign in with Hugging Face" against a fake
 * OpenID provider.
 */
const SPACE_OWNER = { username: 'space-owner', password: 'space-owner-password' };

let hub: E2eFakeHub;
let server: ScholiaServer;
let spaceUrl: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  hub = await startE2eFakeHub();
  server = await startScholiaServer((port) => ({
    SCHOLIA_OWNER_USERNAME: SPACE_OWNER.username,
    SCHOLIA_OWNER_PASSWORD: SPACE_OWNER.password,
    ...hub.serverEnv,
    ...hub.oauthEnv,
    SPACE_ID: 'alice/scholia-space',
    SPACE_TITLE: 'Scholia space',
    SPACE_HOST: 'alice-scholia-space.hf.space',
    // The Space's own callback URL would be https://<SPACE_HOST>/…; the browser here reaches this server on loopback.
    SCHOLIA_OAUTH2_HUGGINGFACE_REDIRECT_URI: `http://127.0.0.1:${port}/oauth/huggingface/callback`,
    SPACE_SUBDOMAIN: 'alice-scholia-space',
    SPACE_AUTHOR_NAME: 'alice',
    PERSISTANT_STORAGE_ENABLED: 'false',
    SCHOLIA_SHARE_YOUR_PROGRESS: 'true',
    USERNAME: 'someone-else', // the Space creator; hf-alice signs in as an annotator
  }));
  spaceUrl = server.baseUrl;
});

test.afterAll(async () => {
  await server?.stop();
  await hub?.close();
});

test.describe('hub-hosted variant (Space)', () => {
  test('welcome screen, Sign in with Hugging Face, annotator storage warning and share-your-progress', async ({ page }) => {
    const settings = await (await fetch(`${spaceUrl}/api/v1/settings`)).json() as Record<string, Record<string, unknown>>;
    expect(settings.argilla).toEqual({ share_your_progress_enabled: true, show_huggingface_space_persistent_storage_warning: true });
    expect(settings.huggingface).toMatchObject({ space_id: 'alice/scholia-space', space_persistent_storage_enabled: false });

    // Anonymous: / → /sign-in → the Space's welcome screen.
    await page.goto(`${spaceUrl}/`);
    await expect(page).toHaveURL(`${spaceUrl}/welcome-hf-sign-in`);
    await expect(page.getByRole('heading', { name: 'Welcome to Scholia' })).toBeVisible();

    // Sign in with Hugging Face: our server → fake /oauth/authorize (auto-consent) → our callback → home.
    await page.getByRole('button', { name: 'Sign in with Hugging Face' }).click();
    await expect(page).toHaveURL(`${spaceUrl}/`, { timeout: 20_000 });
    await expect(page.getByRole('heading', { name: 'Your datasets' })).toBeVisible();
    const token = await page.evaluate(() => localStorage.getItem('scholia.token'));
    const me = await (await fetch(`${spaceUrl}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } })).json() as { username: string; role: string };
    expect(me).toMatchObject({ username: FAKE_HUB_OAUTH_USERNAME, role: 'annotator' });

    // Annotators cannot create datasets: the import screen sends them home, which offers no hub
    // import and shows the annotator wording and share-your-progress.
    await page.goto(`${spaceUrl}/${encodeURIComponent('scholia/topics')}`);
    await expect(page).toHaveURL(`${spaceUrl}/`);
    await expect(page.getByTestId('persistent-storage-warning')).toHaveText(/your annotations may be lost when the space restarts/);
    const share = page.getByRole('region', { name: 'Share your progress' });
    await expect(share.getByRole('link', { name: 'Open the space on the hub' })).toHaveAttribute('href', `${hub.url}/spaces/alice/scholia-space`);
    await expect(page.getByRole('button', { name: 'Import dataset' })).toHaveCount(0);
  });

  test('an owner gets the admin wording of the storage warning; a replayed OAuth state is refused', async ({ page }) => {
    await page.goto(`${spaceUrl}/sign-in?omitCTA=true`);
    await page.getByLabel('Username').fill(SPACE_OWNER.username);
    await page.getByLabel('Password').fill(SPACE_OWNER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${spaceUrl}/`);
    // The shell shows the notices on every signed-in page, the home page included.
    await expect(page.getByTestId('persistent-storage-warning')).toHaveText(/Enable persistent storage in the space settings/);
    await page.goto(`${spaceUrl}/${encodeURIComponent('scholia/topics')}`);
    await expect(page.getByTestId('persistent-storage-warning')).toHaveText(/Enable persistent storage in the space settings/);
    await expect(page.getByRole('button', { name: 'Configure the dataset' })).toBeEnabled();

    // A callback with a made-up state fails and offers the way back to sign-in.
    await page.evaluate(() => localStorage.removeItem('scholia.token'));
    await page.goto(`${spaceUrl}/oauth/huggingface/callback?code=abc&state=forged`);
    await expect(page.getByRole('alert').filter({ hasText: /sign/i }).first()).toBeVisible();
  });
});
