import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { takeRedirectTo } from '@scholia/shared/api';
import { useOAuthCallback } from '../api/get-oauth-access-token.js';

/** /oauth/:provider/callback: trade the query params for our token, then go on. */
export function OAuthCallback({ provider }: { provider?: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const exchange = useOAuthCallback();
  const started = useRef(false);
  const [assigned, setAssigned] = useState<{ username: string; next: string }>();

  useEffect(() => {
    if (started.current || !provider) return;
    started.current = true; // StrictMode runs effects twice; a code can be used once
    const params = Object.fromEntries(new URLSearchParams(location.search));
    exchange.mutate(
      { provider, params },
      {
        onSuccess: (assignedUsername) => {
          const next = takeRedirectTo() ?? '/';
          // A new account under another name waits for the user to read it; else go straight on.
          if (assignedUsername) setAssigned({ username: assignedUsername, next });
          else void navigate(next, { replace: true });
        },
      },
    );
  }, [provider, location.search, exchange, navigate]);

  if (assigned) {
    return (
      <section className="mfe-auth__card" role="status">
        <p>{t('auth.oauthUsernameAssigned', { username: assigned.username })}</p>
        <Link to={assigned.next} replace>{t('auth.continue')}</Link>
      </section>
    );
  }

  if (exchange.isError || !provider) {
    return (
      <section className="mfe-auth__card" role="alert">
        <p>{t('auth.oauthFailed')}</p>
        <Link to="/sign-in">{t('auth.backToSignIn')}</Link>
      </section>
    );
  }
  return <section className="mfe-auth__card" aria-busy="true">{t('auth.oauthWorking')}</section>;
}
