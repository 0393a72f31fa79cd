import { useTranslation } from 'react-i18next';
import type { RemoteIncompatibleError } from './remote-compatibility.js';

/** Shown in place of a remote the shell would not mount: the rest of the app goes on working. */
export function RemoteIncompatible({ error }: { error: RemoteIncompatibleError }) {
  const { t } = useTranslation();
  return (
    <section role="status" className="sch-remote-updating" data-remote={error.remote}>
      <h2>{t('errors.remoteUpdating')}</h2>
      <p>{t('errors.remoteUpdatingHint')}</p>
      <dl>
        <dt>{t('errors.remoteUpdatingPart')}</dt>
        <dd><code>{error.remote}</code>{error.remoteVersion ? <> <code>{error.remoteVersion}</code></> : null}</dd>
        {error.clashes.map((clash) => (
          <div key={clash.what}>
            <dt><code>{clash.what}</code></dt>
            <dd>{t('errors.remoteUpdatingVersions', { remote: clash.remote, shell: clash.shell })}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
