import { useTranslation } from 'react-i18next';
import { oauthAuthenticationUrl } from '@scholia/shared/api';
import { useOAuthProviders } from '../api/get-oauth-providers.js';

const PROVIDER_LABELS: Record<string, string> = { huggingface: 'Hugging Face' };

/** One button per configured provider; nothing when the list is empty. */
export function OAuthButtons() {
  const { t } = useTranslation();
  const { data: providers = [] } = useOAuthProviders();
  if (providers.length === 0) return null;
  const start = (provider: string) => {
    const url = oauthAuthenticationUrl(provider, window.location.search);
    // Inside an iframe (a hub space) the provider refuses to be framed: use a new window (spec §7).
    if (window.top !== window.self) window.open(url, '_blank');
    else window.location.assign(url);
  };
  return (
    <div className="mfe-auth__providers">
      {providers.map(({ name }) => (
        <button key={name} type="button" className="sch-button sch-button--ghost" onClick={() => start(name)}>
          {t('auth.signInWith', { provider: PROVIDER_LABELS[name] ?? name })}
        </button>
      ))}
      <p className="mfe-auth__or">{t('auth.or')}</p>
    </div>
  );
}
