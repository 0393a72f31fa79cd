import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentUserQuery, isLoggedIn } from '@scholia/shared/api';
import { clearRemoteOverrides, readRemoteOverrides } from '../remotes/remote-overrides.js';

/** Always visible while an owner's browser loads a remote from a dev server, with a way out. */
export function RemoteOverrideBanner() {
  const { t } = useTranslation();
  // Fixed for the page's life: turning them off reloads it.
  const [overrides] = useState(() => Object.entries(readRemoteOverrides()));
  const { data: user } = useQuery({ ...currentUserQuery(), enabled: overrides.length > 0 && isLoggedIn() });
  if (overrides.length === 0 || user?.role !== 'owner') return null;
  const list = overrides.map(([remote, entry]) => `${remote} → ${entry}`).join(', ');
  return (
    <div role="status" className="sch-override-banner" data-testid="remote-override-banner">
      <span>{t('remoteOverrides.active', { list })}</span>
      <button type="button" className="sch-button sch-button--ghost" onClick={() => {
        clearRemoteOverrides();
        location.reload();
      }}>{t('remoteOverrides.turnOff')}</button>
    </div>
  );
}
