import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isApiError, takeRedirectTo } from '@scholia/shared/api';
import { OAuthButtons } from '../../oauth/components/oauth-buttons.js';
import { useSignIn } from '../api/create-token.js';

/** Username + password, plus OAuth providers when configured (spec §2). */
export function SignInForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ username, password }, { onSuccess: () => void navigate(takeRedirectTo() ?? '/', { replace: true }) });
  };

  const error = signIn.error;
  const wrongCredentials = isApiError(error) && (error.status === 401 || error.status === 422);

  return (
    <section className="mfe-auth__card">
      <h1>{t('auth.signInTitle')}</h1>
      <OAuthButtons />
      <form onSubmit={onSubmit} className="mfe-auth__form" noValidate>
        <label htmlFor="sign-in-username">{t('auth.username')}</label>
        <input id="sign-in-username" name="username" autoComplete="username" required value={username}
          onChange={(event) => setUsername(event.target.value)} />
        <label htmlFor="sign-in-password">{t('auth.password')}</label>
        <input id="sign-in-password" name="password" type="password" autoComplete="current-password" required
          value={password} onChange={(event) => setPassword(event.target.value)} />
        {error && (
          <p role="alert" className="mfe-auth__error">
            {wrongCredentials ? t('auth.wrongCredentials') : t('http.500')}
          </p>
        )}
        <button type="submit" className="sch-button" disabled={signIn.isPending || !username || !password}>
          {signIn.isPending ? t('auth.signingIn') : t('auth.signIn')}
        </button>
      </form>
    </section>
  );
}
