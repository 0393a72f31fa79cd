import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient, readToken, storeRedirectTo, writeToken } from '@scholia/shared/api';
import { RemoteProviders } from '@scholia/shared/ui';
import { OAuthCallback } from './oauth-callback.js';

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

function renderCallback(path: string) {
  render(
    <RemoteProviders initialPath={path}>
      <Routes>
        <Route path="/oauth/:provider/callback" element={<OAuthCallback provider="huggingface" />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </RemoteProviders>,
  );
}

describe('OAuthCallback', () => {
  afterEach(cleanup);
  beforeEach(() => {
    localStorage.clear();
    queryClient.clear();
  });

  it('trades the callback params for a token, signs in and goes on to redirectTo', async () => {
    writeToken('previous-user'); // login logs out first (spec §4)
    storeRedirectTo('/dataset/7/settings');
    const fetchMock = vi.fn(async () => Response.json({ access_token: 'jwt', token_type: 'bearer' }));
    vi.stubGlobal('fetch', fetchMock);
    renderCallback('/oauth/huggingface/callback?code=abc&state=s1');

    expect((await screen.findByTestId('where')).textContent).toBe('/dataset/7/settings');
    expect(readToken()).toBe('jwt');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]).toEqual([
      '/api/v1/oauth2/providers/huggingface/access-token?code=abc&state=s1', expect.anything(),
    ]);
  });

  it('goes home when nothing was stored', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ access_token: 'jwt', token_type: 'bearer' })));
    renderCallback('/oauth/huggingface/callback?code=abc&state=s1');
    expect((await screen.findByTestId('where')).textContent).toBe('/');
  });

  it('tells the user the name of a new account whose Hugging Face name was taken, then goes on', async () => {
    storeRedirectTo('/dataset/7/settings');
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ access_token: 'jwt', token_type: 'bearer', assigned_username: 'alice-hf' })));
    renderCallback('/oauth/huggingface/callback?code=abc&state=s1');
    expect((await screen.findByRole('status')).textContent).toContain('your new account is named alice-hf');
    expect(readToken()).toBe('jwt');
    expect(screen.queryByTestId('where')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Continue' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/dataset/7/settings');
  });

  it('offers the way back to sign-in when the provider refuses', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ detail: 'Invalid state' }, { status: 400 })));
    renderCallback('/oauth/huggingface/callback?code=abc&state=forged');
    expect((await screen.findByRole('alert')).textContent).toContain('The sign-in could not be completed.');
    expect(screen.getByRole('link', { name: 'Back to sign-in' }).getAttribute('href')).toBe('/sign-in');
    expect(readToken()).toBeUndefined();
  });
});
