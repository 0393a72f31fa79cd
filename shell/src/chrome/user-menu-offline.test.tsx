import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient, writeToken } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';

// The open menu's code as a chunk that cannot be fetched while `offline` holds.
let offline = true;
vi.mock('./user-menu-panel.js', async (importActual) => {
  if (offline) throw new Error('Loading chunk 412 failed.');
  return importActual();
});

describe('UserMenu offline', () => {
  afterEach(cleanup);
  beforeEach(() => {
    localStorage.clear();
    queryClient.clear();
    writeToken('tok');
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({
      id: 'u1', username: 'grace', first_name: 'Grace', last_name: null, role: 'owner', api_key: 'k',
    })));
  });

  it('opened before its code could load, says so in its place and keeps the page; opens once back online', async () => {
    const { UserMenu } = await import('./user-menu.js');
    render(<RemoteProviders><p>The page</p><UserMenu /></RemoteProviders>);
    const button = await screen.findByRole('button', { name: 'User menu' });
    fireEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toMatch(/offline/);
    expect(screen.getByText('The page')).toBeTruthy();

    offline = false;
    fireEvent.click(button); // closes
    fireEvent.click(button); // opens again, fetching the code anew
    expect(await screen.findByRole('menuitem', { name: 'Log out' })).toBeTruthy();
  });
});
