import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { OAuthButtons } from '../../oauth/components/oauth-buttons.js';

/** Welcome screen of the hub-hosted variant; `omitCTA` keeps /sign-in from bouncing back here. */
export function WelcomeHfSignIn() {
  const { t } = useTranslation();
  return (
    <section className="mfe-auth__card">
      <h1>{t('auth.welcomeTitle')}</h1>
      <p>{t('auth.welcomeText')}</p>
      <OAuthButtons />
      <Link to="/sign-in?omitCTA=true">{t('auth.signInWithUsername')}</Link>
    </section>
  );
}
