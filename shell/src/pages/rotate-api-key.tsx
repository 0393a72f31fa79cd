import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rotateApiKey } from '@scholia/shared/api';
import { notify } from '@scholia/shared/bus';

/** Replaces the user's API key after a confirmation: the old key stops working at once. */
export function RotateApiKey() {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState(false);

  async function onConfirm() {
    setRotating(true);
    try {
      await rotateApiKey();
      notify({ message: t('userSettings.rotateApiKeyDone'), type: 'success' });
      setConfirming(false);
    } catch {
      // The global handler showed the error toast.
    }
    setRotating(false);
  }

  if (!confirming) {
    return (
      <button type="button" className="sch-button sch-button--ghost" onClick={() => setConfirming(true)}>
        {t('userSettings.rotateApiKey')}
      </button>
    );
  }
  return (
    <div role="alertdialog" aria-labelledby="rotate-api-key-warning" className="sch-user-settings__rotate">
      <p id="rotate-api-key-warning">{t('userSettings.rotateApiKeyWarning')}</p>
      <button type="button" className="sch-button" disabled={rotating} onClick={() => void onConfirm()}>
        {t('userSettings.rotateApiKeyConfirm')}
      </button>
      <button type="button" className="sch-button sch-button--ghost" onClick={() => setConfirming(false)}>
        {t('common.cancel')}
      </button>
    </div>
  );
}
