import { useTranslation } from 'react-i18next';

export function RemoteLoadError({ remote, error, onRetry }: { remote: string; error: Error; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <section role="alert" className="sch-remote-error" data-remote={remote}>
      <h2>{t('errors.remoteFailed', { remote })}</h2>
      <p>{t('errors.remoteFailedHint')}</p>
      <details>
        <summary>{error.name}</summary>
        <code>{error.message}</code>
      </details>
      <button type="button" className="sch-button" onClick={onRetry}>{t('common.retry')}</button>
    </section>
  );
}
