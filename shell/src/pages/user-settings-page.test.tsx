import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient, readToken } from '@scholia/shared/api';
import { changeLanguage } from '@scholia/shared/i18n';
import { RemoteProviders } from '@scholia/shared/ui';
import { UserSettingsPage } from './user-settings-page.js';

const USER = {
  id: 'u1', username: 'ada', first_name: 'Ada', last_name: 'Lovelace', role: 'admin', api_key: 'ada.api.key',
  inserted_at: '2026-01-01T00:00:00', updated_at: '2026-01-01T00:00:00',
};

describe('My settings', () => {
  afterEach(async () => {
    cleanup();
    await changeLanguage('en');
  });
  beforeEach(() => {
    localStorage.clear();
    queryClient.clear();
    vi.stubGlobal('fetch', vi.fn(async () => Response.json(USER)));
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {},
    }));
  });

  it('shows username, name, role and the API key with a copy control', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    render(<RemoteProviders><UserSettingsPage /></RemoteProviders>);
    expect((await screen.findByTestId('user-username')).textContent).toBe('ada');
    expect(screen.getByText('Ada Lovelace')).toBeTruthy();
    expect(screen.getByText('Admin')).toBeTruthy();
    expect(screen.getByTestId('user-api-key').textContent).toBe('ada.api.key');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy' })));
    expect(writeText).toHaveBeenCalledWith('ada.api.key');
    expect(screen.getByRole('tooltip').textContent).toBe('Copied');
  });

  it('creates a new API key only after a confirmation, shows it and goes on with the token that came back', async () => {
    localStorage.setItem('scholia.token', 'old.session.token');
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('v1/me/api-key') && init?.method === 'POST') {
        return Response.json({ api_key: 'ada.new.key', access_token: 'new.session.token', token_type: 'bearer' }, { status: 201 });
      }
      return Response.json(USER);
    });
    vi.stubGlobal('fetch', fetchMock);
    const rotations = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('v1/me/api-key')).length;
    render(<RemoteProviders><UserSettingsPage /></RemoteProviders>);
    expect((await screen.findByTestId('user-api-key')).textContent).toBe('ada.api.key');

    // Asking, then cancelling, changes nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Create a new key' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('stops working at once');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(rotations()).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: 'Create a new key' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Replace my key' })));
    expect(rotations()).toBe(1);
    expect((await screen.findByTestId('user-api-key')).textContent).toBe('ada.new.key');
    expect(readToken()).toBe('new.session.token');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows owners every user with its Hugging Face link, and links and unlinks accounts', async () => {
    const owner = { ...USER, role: 'owner' };
    const bob = { ...USER, id: 'u2', username: 'bob', role: 'annotator', api_key: undefined };
    const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (init?.method === 'PUT') return Response.json({ user_id: 'u1', provider: 'huggingface', subject: '777' });
      if (init?.method === 'DELETE') return Response.json({ user_id: 'u2', provider: 'huggingface', subject: '123' });
      if (url.endsWith('v1/users')) return Response.json({ items: [{ ...owner, api_key: undefined }, bob] });
      if (url.endsWith('v1/identities')) return Response.json({ items: [{ user_id: 'u2', provider: 'huggingface', subject: '123' }] });
      return Response.json(owner);
    });
    vi.stubGlobal('fetch', fetchMock);
    const writes = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT' || init?.method === 'DELETE');
    render(<RemoteProviders><UserSettingsPage /></RemoteProviders>);

    expect(await screen.findByRole('heading', { name: 'Users' })).toBeTruthy();
    const bobRow = (await screen.findByRole('rowheader', { name: 'bob' })).closest('tr')!;
    expect(bobRow.textContent).toContain('123');
    const subject = screen.getByRole('textbox', { name: 'Hugging Face user id for ada' });
    expect((screen.getByRole('button', { name: 'Link' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(subject, { target: { value: ' 777 ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Link' })));
    expect(writes()[0]).toEqual(['/api/v1/users/u1/identities/huggingface', expect.objectContaining({ method: 'PUT', body: JSON.stringify({ subject: '777' }) })]);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Unlink bob from Hugging Face' })));
    expect(writes()[1]).toEqual(['/api/v1/users/u2/identities/huggingface', expect.objectContaining({ method: 'DELETE' })]);
  });

  it('shows no users to anyone but an owner', async () => {
    render(<RemoteProviders><UserSettingsPage /></RemoteProviders>);
    expect((await screen.findByTestId('user-username')).textContent).toBe('ada');
    expect(screen.queryByRole('heading', { name: 'Users' })).toBeNull();
  });

  it('saves and paints the theme, and switches and saves the language', async () => {
    render(<RemoteProviders><UserSettingsPage /></RemoteProviders>);
    const theme = screen.getByLabelText('Theme') as HTMLSelectElement;
    expect(theme.value).toBe('system'); // the default
    fireEvent.change(theme, { target: { value: 'high-contrast' } });
    expect(localStorage.getItem('scholia.theme')).toBe('high-contrast');
    expect(document.documentElement.dataset.theme).toBe('high-contrast');

    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'de' } });
    expect(await screen.findByRole('heading', { name: 'Meine Einstellungen' })).toBeTruthy();
    expect(localStorage.getItem('scholia.language')).toBe('de');
    expect((screen.getByLabelText('Sprache') as HTMLSelectElement).value).toBe('de');
  });
});
