import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { deleteDataset, type Dataset } from '@scholia/shared/api';
import { bus, notify } from '@scholia/shared/bus';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';

/** Delete the dataset after typing its name; it cannot be undone (spec §2). */
export function DangerZone({ dataset }: { dataset: Dataset }) {
  const { t } = useTranslation(SETTINGS_NS);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);
  const matches = typed === dataset.name;

  async function onDelete() {
    if (!matches) return;
    setDeleting(true);
    try {
      if (await deleteDataset(dataset.id)) {
        notify({ message: t('danger.deleted', { name: dataset.name }), type: 'success' });
        bus.emit('dataset:deleted', { datasetId: dataset.id });
        void navigate('/');
        return;
      }
    } catch {
      // The global handler showed the error toast.
    }
    setDeleting(false);
  }

  return (
    <section className="sch-card mfe-settings__section mfe-settings__danger" aria-labelledby="settings-danger-title">
      <h2 id="settings-danger-title">{t('danger.title')}</h2>
      <h3>{t('danger.deleteTitle')}</h3>
      <p>{t('danger.deleteText')}</p>
      {!confirming ? (
        <button type="button" className="sch-button mfe-settings__danger-button" onClick={() => setConfirming(true)}>
          {t('danger.deleteButton')}
        </button>
      ) : (
        <form onSubmit={(event) => { event.preventDefault(); void onDelete(); }}>
          <label htmlFor="settings-delete-confirm">{t('danger.confirmLabel', { name: dataset.name })}</label>
          <input id="settings-delete-confirm" autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} />
          <div className="mfe-settings__actions">
            <button type="submit" className="sch-button mfe-settings__danger-button" disabled={!matches || deleting}>
              {t('danger.confirmButton')}
            </button>
            <button type="button" className="sch-button sch-button--ghost" onClick={() => { setConfirming(false); setTyped(''); }}>
              {t('danger.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
