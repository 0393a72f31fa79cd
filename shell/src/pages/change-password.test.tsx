import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient, readToken } from '@scholia/shared/api';
import { bus, type ToastRequest } from '@scholia/shared/bus';
import { RemoteProviders } from '@scholia/shared/ui';
import { ChangePassword } from './change-password.js';

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });
const submit = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Change password' })));
const passwordCalls = (fetchMock: ReturnType<typeof vi.fn>) => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('v1/me/password'));

function answer(status: number, body: unknown) {
  const fetchMock = vi.fn(async () => Response.json(body, { status }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('My settings → Password', () => {
  const toasts: ToastRequest[] = [];
  const onToast = (toast: ToastRequest) => toasts.push(toast);
  beforeEach(() => {
    localStorage.clear();
    queryClient.clear();
    toasts.length = 0;
    bus.on('toast:requested', onToast);
    localStorage.setItem('scholia.token', 'old.session.token');
    render(<RemoteProviders><ChangePassword username="ada" /></RemoteProviders>);
  });
  afterEach(() => {
    bus.off('toast:requested', onToast);
    cleanup();
  });

  it('labels each field for password managers and screen readers', () => {
    expect(screen.getByRole('heading', { name: 'Password' })).toBeTruthy();
    expect(field('Current password').autocomplete).toBe('current-password');
    expect(field('New password').autocomplete).toBe('new-password');
    expect(field('Repeat the new password').autocomplete).toBe('new-password');
    expect(field('New password').type).toBe('password');
    // Tells password managers whose password this is.
    expect((document.querySelector('input[autocomplete="username"]') as HTMLInputElement).value).toBe('ada');
  });

  it('says what is wrong under the field, marks it and focuses it, without asking the server', async () => {
    const fetchMock = answer(200, {});
    await submit();
    expect(field('Current password').getAttribute('aria-invalid')).toBe('true');
    expect(field('Current password').getAttribute('aria-describedby')).toBe('password-current-error');
    expect(document.getElementById('password-current-error')?.textContent).toBe('Enter your current password.');
    expect(document.activeElement).toBe(field('Current password'));

    type('Current password', 'old-password');
    type('New password', 'short');
    await submit();
    expect(screen.getByText('The new password must be 8 to 100 characters long.')).toBeTruthy();
    expect(document.activeElement).toBe(field('New password'));

    type('New password', 'long enough now');
    type('Repeat the new password', 'long enough n0w');
    await submit();
    expect(screen.getByText('The two new passwords differ.')).toBeTruthy();
    expect(field('New password').getAttribute('aria-invalid')).toBeNull();
    expect(passwordCalls(fetchMock)).toHaveLength(0);
  });

  it('changes the password, goes on with the token that came back and says so', async () => {
    const fetchMock = answer(200, { access_token: 'new.session.token', token_type: 'bearer' });
    type('Current password', 'old-password');
    type('New password', 'long enough now');
    type('Repeat the new password', 'long enough now');
    await submit();
    const [[, init]] = passwordCalls(fetchMock) as [[string, RequestInit]];
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ current_password: 'old-password', new_password: 'long enough now' });
    expect(readToken()).toBe('new.session.token');
    expect(toasts).toEqual([{ message: 'Your password is changed. Other sessions are signed out.', type: 'success' }]);
    expect(field('Current password').value).toBe('');
    expect(field('New password').value).toBe('');
  });

  it('shows a wrong current password under its field, not as a toast', async () => {
    answer(403, { detail: { code: 'argilla.api.errors::ForbiddenOperationError', params: { detail: 'The current password is wrong' } } });
    type('Current password', 'not-it');
    type('New password', 'long enough now');
    type('Repeat the new password', 'long enough now');
    await submit();
    expect(document.getElementById('password-current-error')?.textContent).toMatch(/^This is not your current password\. If you only ever signed in with Hugging Face/);
    expect(field('Current password').getAttribute('aria-invalid')).toBe('true');
    expect(toasts).toEqual([]);
    expect(readToken()).toBe('old.session.token');
  });

  it('asks to wait after too many wrong passwords', async () => {
    answer(429, { detail: 'Too many wrong passwords for this username, retry in 8 s' });
    type('Current password', 'not-it');
    type('New password', 'long enough now');
    type('Repeat the new password', 'long enough now');
    await submit();
    expect(screen.getByRole('alert').textContent).toBe('Too many wrong passwords. Wait a minute, then try again.');
    expect(toasts).toEqual([]);
  });

  it('leaves a refused session to the global handler: the session ends, nothing is said under the fields', async () => {
    const expired = vi.fn();
    bus.on('session:expired', expired);
    answer(401, { detail: { code: 'argilla.api.errors::UnauthorizedError', params: { detail: 'Invalid token' } } });
    type('Current password', 'old-password');
    type('New password', 'long enough now');
    type('Repeat the new password', 'long enough now');
    await submit();
    bus.off('session:expired', expired);
    expect(expired).toHaveBeenCalledTimes(1);
    expect(toasts.map((toast) => toast.type)).toEqual(['danger']);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(field('Current password').getAttribute('aria-invalid')).toBeNull();
  });
});
