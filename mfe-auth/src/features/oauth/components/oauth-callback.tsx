import { useEffect, useRef } from 'react';
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

  useEffect(() => {
    if (started.current || !provider) return;
    started.current = true; // StrictMode runs effects twice; a code can be used once
    const params = Object.fromEntries(new URLSearchParams(location.search));
    exchange.mutate({ provider, params }, { onSuccess: () => void navigate(takeRedirectTo() ?? '/', { replace: true }) });
  }, [provider, location.search, exchange, navigate]);

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
