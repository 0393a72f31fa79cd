import { expect, test } from '@playwright/test';
import { baseUrl, createToken, createUser, ownerApi, signInAs } from '../fixtures/api.js';

/** The caller's own credentials: a new API key or password from My settings ends the old one and other sessions. */
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

  test('a new password from My settings: sign out, the old password is refused, the new one signs in', async ({ page }) => {
    const user = await createUser('annotator');
    const otherSession = await createToken(user.username, user.password);
    const newPassword = `${user.password}-renewed`;
    await page.goto(`${baseUrl()}/user-settings`);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('user-username')).toHaveText(user.username);

    // A wrong current password is said under its field; nothing changes.
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.locator('#password-current-error')).toContainText('This is not your current password');
    await expect(page.getByLabel('Current password')).toBeFocused();

    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password is changed')).toBeVisible();
    await expect(page.getByLabel('Current password')).toHaveValue('');
    expect((await meWithToken(otherSession)).status).toBe(401);
    // This page goes on with the token that came back: a reload stays signed in.
    await page.reload();
    await expect(page.getByTestId('user-username')).toHaveText(user.username);

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong username or password. Try again');
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${baseUrl()}/`);
    await expect(page.getByRole('heading', { name: 'Your datasets' })).toBeVisible();
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
