import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { UserMenu } from './user-menu.js';

export function Logo() {
  const { t } = useTranslation();
  return (
    // The name holds the visible one ("Scholia"), as speech input expects.
    <Link to="/" className="sch-logo" aria-label={t('nav.logo', { app: t('common.appName') })}>
      <span className="sch-logo__mark" aria-hidden="true">◆</span>
      <span className="sch-logo__text">{t('common.appName')}</span>
    </Link>
  );
}

export function AppHeader({ children }: { children?: ReactNode }) {
  return (
    <header className="sch-header">
      <Logo />
      <div className="sch-header__middle">{children}</div>
      <UserMenu />
    </header>
  );
}
