import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery, isLoggedIn } from '@scholia/shared/api';
import { Avatar } from '@scholia/shared/ui';

type PanelModule = typeof import('./user-menu-panel.js');

let loading: Promise<PanelModule> | undefined;
/** The open menu's code, fetched once; a failed download is tried again at the next call. */
export function loadUserMenuPanel(): Promise<PanelModule> {
  loading ??= import('./user-menu-panel.js').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * When the open menu's code comes unasked: not for the first paint, but before the connection may
 * drop, since the menu opens offline too.
 */
export const USER_MENU_PRELOAD_MS = 3000;

/** Avatar button opening My settings, View docs and Log out (spec §2). */
export function UserMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [panel, setPanel] = useState<PanelModule | 'failed'>();
  const { data: user } = useQuery({ ...currentUserQuery(), enabled: isLoggedIn() });

  const load = () => loadUserMenuPanel().then(setPanel, () => setPanel((current) => current ?? 'failed'));
  useEffect(() => {
    const preload = setTimeout(() => (window.requestIdleCallback ?? ((run: () => void) => run()))(() => void loadUserMenuPanel().then(setPanel, () => undefined)), USER_MENU_PRELOAD_MS);
    return () => clearTimeout(preload);
  }, []);

  if (!user) return null;
  const toggle = () => {
    // Opening offline without the code: a notice in the menu's place, and another try next time.
    if (!open && (panel === undefined || panel === 'failed')) void load();
    setOpen((v) => !v);
  };
  let body = null;
  if (open && panel === 'failed') {
    body = <div className="sch-user-menu__panel" role="alert" data-testid="user-menu-unavailable">{t('nav.userMenuUnavailable')}</div>;
  } else if (open && panel !== undefined && panel !== 'failed') {
    body = <panel.UserMenuPanel user={user} onClose={setOpen} />;
  }
  return (
    <div className="sch-user-menu">
      {/* Named by a hidden text, not aria-label: the avatar's letters show but are no words to say. */}
      <button type="button" className="sch-user-menu__button" aria-haspopup="menu" aria-expanded={open}
        onClick={toggle} onPointerEnter={() => void load()}>
        <span className="sch-visually-hidden">{t('nav.userMenu')}</span>
        <Avatar username={user.username} size="SMALL" />
      </button>
      {body}
    </div>
  );
}
