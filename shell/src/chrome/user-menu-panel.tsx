import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { logout, type User } from '@scholia/shared/api';
import { Avatar } from '@scholia/shared/ui';

export const DOCS_URL = 'https://docs.argilla.io/latest/';

/** The open user menu: who is signed in, My settings, View docs and Log out (spec §2). */
/** `onClose(false)` closes the menu (the owner's state setter, so it never changes identity). */
export function UserMenuPanel({ user, onClose }: { user: User; onClose: (open: false) => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // A click outside the menu (the avatar button included: it toggles) or Escape closes it.
    const onDocClick = (event: MouseEvent) => {
      const menu = ref.current?.parentElement;
      if (menu && !menu.contains(event.target as Node)) onClose(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose(false);
    document.addEventListener('mousedown', onDocClick);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDocClick);
      document.removeEventListener('keydown', onKey);
    };
  }, [onClose]);

  return (
    <div role="menu" className="sch-user-menu__panel" ref={ref}>
      <div className="sch-user-menu__who">
        <Avatar username={user.username} size="MEDIUM" />
        <div>
          <strong>{user.username}</strong>
          <div className="sch-muted">{t(`userSettings.roles.${user.role}`)}</div>
        </div>
      </div>
      <Link role="menuitem" to="/user-settings" onClick={() => onClose(false)}>{t('nav.mySettings')}</Link>
      <a role="menuitem" href={DOCS_URL} target="_blank" rel="noreferrer">{t('nav.viewDocs')}</a>
      <button role="menuitem" type="button" onClick={() => logout('user')}>{t('nav.logOut')}</button>
    </div>
  );
}
