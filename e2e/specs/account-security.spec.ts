import { expect, test } from '@playwright/test';
import { baseUrl, createToken, createUser, ownerApi, signInAs } from '../fixtures/api.js';

/** The caller's own credentials: a new API key from My settings ends the old key and sessions. */
const meWithKey = (apiKey: string) => fetch(`${baseUrl()}/api/v1/me`, { headers: { 'X-Argilla-Api-Key': apiKey } });
const meWithToken = (token: string) => fetch(`${baseUrl()}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } });

test.describe('account security', () => {
  test('a new API key from My settings: the old key is refused, the new one works, the page stays signed in', async ({ page }) => {
    const user = await createUser('annotator');
    const otherSession = await createToken(user.username, user.password);
    await signInAs(page, user.username, user.password);
    await page.goto(`${baseUrl()}/user-settings`);
    await expect(page.getByTestId('user-api-key')).toHaveText(user.api_key);

    // Cancelling the confirmation keeps the key.
    await page.getByRole('button', { name: 'Create a new key' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('stops working at once');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    expect((await meWithKey(user.api_key)).status).toBe(200);

    await page.getByRole('button', { name: 'Create a new key' }).click();
    await page.getByRole('button', { name: 'Replace my key' }).click();
    await expect(page.getByText('Your new API key is ready')).toBeVisible();
    await expect(page.getByTestId('user-api-key')).not.toHaveText(user.api_key);
    const newKey = (await page.getByTestId('user-api-key').textContent()) ?? '';
    expect(newKey.length).toBeGreaterThan(20);

    expect((await meWithKey(user.api_key)).status).toBe(401);
    const byNewKey = await meWithKey(newKey);
    expect(byNewKey.status).toBe(200);
    expect(((await byNewKey.json()) as { username: string }).username).toBe(user.username);
    // Another session of the same user ended with the rotation.
    expect((await meWithToken(otherSession)).status).toBe(401);

    // This page went on with the token the rotation returned: a reload stays signed in.
    await page.reload();
    await expect(page).toHaveURL(`${baseUrl()}/user-settings`);
    await expect(page.getByTestId('user-api-key')).toHaveText(newKey);
  });

  test("the owner's user list and a workspace's members never show an API key", async () => {
    const user = await createUser('admin');
    const users = await ownerApi<{ items: Record<string, unknown>[] }>('GET', 'users');
    expect(users.items.length).toBeGreaterThan(1);
    for (const item of users.items) expect(item).not.toHaveProperty('api_key');
    const workspace = await ownerApi<{ id: string }>('POST', 'workspaces', { name: `keys_${user.id.slice(-12)}` });
    await ownerApi('POST', `workspaces/${workspace.id}/users`, { user_id: user.id });
    const members = await fetch(`${baseUrl()}/api/v1/workspaces/${workspace.id}/users`, { headers: { 'X-Argilla-Api-Key': user.api_key } });
    expect(members.status).toBe(200);
    const body = (await members.json()) as { items: Record<string, unknown>[] };
    expect(body.items.map((item) => item.id)).toContain(user.id);
    for (const item of body.items) expect(item).not.toHaveProperty('api_key');
  });
});
