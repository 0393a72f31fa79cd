import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery, isLoggedIn } from '@scholia/shared/api';
import { Avatar } from '@scholia/shared/ui';

// The open menu's code is not needed for the first paint: it loads when the pointer reaches the
// avatar, or on the click (or the key) that opens it.
const loadPanel = () => import('./user-menu-panel.js');
const UserMenuPanel = lazy(() => loadPanel().then((m) => ({ default: m.UserMenuPanel })));

/** Avatar button opening My settings, View docs and Log out (spec §2). */
export function UserMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { data: user } = useQuery({ ...currentUserQuery(), enabled: isLoggedIn() });

  if (!user) return null;
  return (
    <div className="sch-user-menu">
      <button type="button" className="sch-user-menu__button" aria-haspopup="menu" aria-expanded={open}
        aria-label={t('nav.userMenu')} onClick={() => setOpen((v) => !v)} onPointerEnter={() => void loadPanel()}>
        <Avatar username={user.username} size="SMALL" />
      </button>
      {open && <Suspense fallback={null}><UserMenuPanel user={user} onClose={setOpen} /></Suspense>}
    </div>
  );
}
