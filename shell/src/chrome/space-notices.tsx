import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { currentUserQuery, environmentQuery, getHubEndpoints, isHubSpace, isLoggedIn } from '@scholia/shared/api';
import type { EnvironmentSettings } from '@scholia/shared/api';

/** Spec §1/§3: on a hub space without persistent storage, warn (worded by role). */
export function shouldWarnAboutStorage(settings: EnvironmentSettings | undefined): boolean {
  return isHubSpace(settings)
    && settings?.argilla?.show_huggingface_space_persistent_storage_warning === true
    && settings.huggingface?.space_persistent_storage_enabled !== true;
}

/**
 * The hub-hosted variant's notices under the header of every signed-in page: the
 * persistent-storage warning and share-your-progress when the server enables it.
 */
export function SpaceNotices() {
  const { t } = useTranslation();
  const { data: settings } = useQuery({ ...environmentQuery(), retry: false });
  const { data: user } = useQuery({ ...currentUserQuery(), enabled: isLoggedIn() });
  const spaceId = settings?.huggingface?.space_id;
  const shareEnabled = Boolean(settings?.argilla?.share_your_progress_enabled && spaceId);
  const { data: endpoints } = useQuery({ queryKey: ['hub', 'endpoints'], queryFn: getHubEndpoints, staleTime: Infinity, enabled: shareEnabled });
  if (!isHubSpace(settings)) return null;
  const adminOrOwner = user?.role === 'admin' || user?.role === 'owner';
  return (
    <div className="sch-space-notices">
      {shouldWarnAboutStorage(settings) && user && (
        <p className="sch-space-notices__warning" role="alert" data-testid="persistent-storage-warning">
          {adminOrOwner ? t('space.storageWarningAdmin') : t('space.storageWarningAnnotator')}
        </p>
      )}
      {shareEnabled && (
        <section className="sch-space-notices__share" aria-label={t('space.shareTitle')}>
          <strong>{t('space.shareTitle')}</strong> <span className="sch-muted">{t('space.shareText')}</span>{' '}
          <a href={`${endpoints?.hubUrl ?? 'https://huggingface.co'}/spaces/${spaceId}`} target="_blank" rel="noreferrer">
            {t('space.shareLink')}
          </a>
        </section>
      )}
    </div>
  );
}
