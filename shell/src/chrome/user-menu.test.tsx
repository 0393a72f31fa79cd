import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient, readToken, writeToken } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import { RemoteProviders } from '@scholia/shared/ui';
import { UserMenu } from './user-menu.js';
import { DOCS_URL } from './user-menu-panel.js';

describe('UserMenu', () => {
  afterEach(cleanup);
  beforeEach(() => {
    localStorage.clear();
    queryClient.clear();
    writeToken('tok');
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({
      id: 'u1', username: 'grace', first_name: 'Grace', last_name: null, role: 'owner', api_key: 'k',
    })));
  });

  it('opens from the avatar with My settings, View docs and Log out; Log out signs out', async () => {
    const signedOut = vi.fn();
    bus.on('session:signed-out', signedOut);
    render(<RemoteProviders><UserMenu /></RemoteProviders>);
    const button = await screen.findByRole('button', { name: 'User menu' });
    expect(button.querySelector('.sch-avatar')?.textContent).toBe('GR'); // the avatar: first two letters
    fireEvent.click(button);

    expect((await screen.findByRole('menuitem', { name: 'My settings' })).getAttribute('href')).toBe('/user-settings');
    expect(screen.getByRole('menuitem', { name: 'View docs' }).getAttribute('href')).toBe(DOCS_URL);
    expect(screen.getByRole('menu').textContent).toContain('Owner');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Log out' }));
    expect(readToken()).toBeUndefined();
    expect(signedOut).toHaveBeenCalledWith({ reason: 'user' });
    bus.off('session:signed-out', signedOut);
  });

  it('closes on Escape', async () => {
    render(<RemoteProviders><UserMenu /></RemoteProviders>);
    fireEvent.click(await screen.findByRole('button', { name: 'User menu' }));
    expect(await screen.findByRole('menu')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
