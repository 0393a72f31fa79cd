import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery, isLoggedIn, logout } from '@scholia/shared/api';
import { Avatar } from '@scholia/shared/ui';

export const DOCS_URL = 'https://docs.argilla.io/latest/';

/** Avatar button with My settings, View docs and Log out (spec §2). */
export function UserMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const { data: user } = useQuery({ ...currentUserQuery(), enabled: isLoggedIn() });

  useEffect(() => {
    if (!open) return;
    const onDocClick = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDocClick);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDocClick);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!user) return null;
  return (
    <div className="sch-user-menu" ref={ref}>
      <button type="button" className="sch-user-menu__button" aria-haspopup="menu" aria-expanded={open}
        aria-label={t('nav.userMenu')} onClick={() => setOpen((v) => !v)}>
        <Avatar username={user.username} size="SMALL" />
      </button>
      {open && (
        <div role="menu" className="sch-user-menu__panel">
          <div className="sch-user-menu__who">
            <Avatar username={user.username} size="MEDIUM" />
            <div>
              <strong>{user.username}</strong>
              <div className="sch-muted">{t(`userSettings.roles.${user.role}`)}</div>
            </div>
          </div>
          <Link role="menuitem" to="/user-settings" onClick={() => setOpen(false)}>{t('nav.mySettings')}</Link>
          <a role="menuitem" href={DOCS_URL} target="_blank" rel="noreferrer">{t('nav.viewDocs')}</a>
          <button role="menuitem" type="button" onClick={() => logout('user')}>{t('nav.logOut')}</button>
        </div>
      )}
    </div>
  );
}
