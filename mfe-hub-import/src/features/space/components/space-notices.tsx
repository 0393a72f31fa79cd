import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentUserQuery, environmentQuery, getHubEndpoints, isHubSpace, isLoggedIn } from '@scholia/shared/api';
import type { EnvironmentSettings, Role } from '@scholia/shared/api';

/** Spec §1/§3: on a hub space without persistent storage, warn (wording by role). */
export function shouldWarnAboutStorage(settings: EnvironmentSettings | undefined): boolean {
  return isHubSpace(settings)
    && settings?.argilla?.show_huggingface_space_persistent_storage_warning === true
    && settings.huggingface?.space_persistent_storage_enabled !== true;
}

export const isAdminOrOwner = (role: Role | undefined) => role === 'admin' || role === 'owner';

/**
 * The hub-hosted variant's notices: the persistent-storage warning (admin/owner vs annotator
 * wording) and share-your-progress when the server enables it. Renders nothing elsewhere.
 */
export function SpaceNotices() {
  const { t } = useTranslation('hubImport');
  const { data: settings } = useQuery({ ...environmentQuery(), retry: false });
  const { data: user } = useQuery({ ...currentUserQuery(), enabled: isLoggedIn() });
  const { data: endpoints } = useQuery({ queryKey: ['hub', 'endpoints'], queryFn: getHubEndpoints, staleTime: Infinity });
  if (!isHubSpace(settings)) return null;
  const spaceId = settings?.huggingface?.space_id;
  return (
    <div className="mfe-hub-import__space">
      {shouldWarnAboutStorage(settings) && user && (
        <p className="mfe-hub-import__warning" role="alert" data-testid="persistent-storage-warning">
          {isAdminOrOwner(user.role) ? t('space.storageWarningAdmin') : t('space.storageWarningAnnotator')}
        </p>
      )}
      {settings?.argilla?.share_your_progress_enabled && spaceId && (
        <section className="mfe-hub-import__share" aria-label={t('space.shareTitle')}>
          <strong>{t('space.shareTitle')}</strong> <span className="sch-muted">{t('space.shareText')}</span>{' '}
          <a href={`${endpoints?.hubUrl ?? 'https://huggingface.co'}/spaces/${spaceId}`} target="_blank" rel="noreferrer">
            {t('space.shareLink')}
          </a>
        </section>
      )}
    </div>
  );
}
