import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient, readToken } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { SignInForm } from './sign-in-form.js';

function stubFetch(handler: (url: string, init?: RequestInit) => Response) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => handler(url, init));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function fillAndSubmit(password: string) {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'owner' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('SignInForm', () => {
  afterEach(cleanup);
  beforeEach(() => {
    localStorage.clear();
    queryClient.clear();
  });

  it('says "Wrong username or password. Try again" on 401', async () => {
    stubFetch((url) => url.endsWith('/oauth2/providers')
      ? Response.json({ items: [] })
      : Response.json({ detail: { code: 'argilla.api.errors::UnauthorizedError', params: {} } }, { status: 401 }));
    render(<RemoteProviders initialPath="/sign-in"><SignInForm /></RemoteProviders>);
    fillAndSubmit('bad');
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong username or password. Try again');
    expect(readToken()).toBeUndefined();
  });

  it('stores the token on success and lists OAuth providers', async () => {
    const fetchMock = stubFetch((url) => url.endsWith('/oauth2/providers')
      ? Response.json({ items: [{ name: 'huggingface' }] })
      : Response.json({ access_token: 'jwt', token_type: 'bearer' }, { status: 201 }));
    render(<RemoteProviders initialPath="/sign-in"><SignInForm /></RemoteProviders>);
    expect(await screen.findByRole('button', { name: 'Sign in with Hugging Face' })).toBeTruthy();
    fillAndSubmit('good-password');
    await vi.waitFor(() => expect(readToken()).toBe('jwt'));
    const tokenCall = fetchMock.mock.calls.find(([url]) => url === '/api/v1/token');
    expect(tokenCall?.[1]?.body).toBe('username=owner&password=good-password');
  });
});
