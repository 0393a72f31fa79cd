import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadRecordsExport, isApiError, type Dataset, type RecordsExportFormat } from '@scholia/shared/api';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';
import { saveBlob } from '../../lib/save-blob.js';

const FORMATS: RecordsExportFormat[] = ['jsonl', 'csv'];

/** "Download records": the dataset's records as a JSONL or CSV file, fetched with the session's credentials. */
export function RecordsDownload({ dataset }: { dataset: Dataset }) {
  const { t } = useTranslation(SETTINGS_NS);
  const [format, setFormat] = useState<RecordsExportFormat>('jsonl');
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();

  async function onDownload() {
    setDownloading(true);
    setError(undefined);
    setSaved(undefined);
    try {
      const file = await downloadRecordsExport(dataset, format);
      saveBlob(file.blob, file.filename);
      setSaved(file.filename);
    } catch (cause) {
      setError(isApiError(cause) ? (cause.detail ?? cause.message) : String(cause));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section className="sch-card mfe-settings__section" aria-labelledby="settings-download-title">
      <h2 id="settings-download-title">{t('downloadRecords.title')}</h2>
      <p className="sch-muted">{t('downloadRecords.intro')}</p>
      <form noValidate data-testid="records-download-form" onSubmit={(event) => { event.preventDefault(); void onDownload(); }}>
        <fieldset className="mfe-settings__choices">
          <legend>{t('downloadRecords.format')}</legend>
          {FORMATS.map((value) => (
            <div className="sch-form-row" key={value}>
              <input id={`settings-download-${value}`} type="radio" name="records-download-format" value={value}
                checked={format === value} onChange={() => setFormat(value)} />
              <label htmlFor={`settings-download-${value}`}>{t(`downloadRecords.${value}`)}</label>
            </div>
          ))}
        </fieldset>
        {error && <p className="mfe-settings__issue" data-testid="records-download-error">{error}</p>}
        <div className="mfe-settings__actions">
          <button type="submit" className="sch-button" disabled={downloading}>
            {downloading ? t('downloadRecords.submitting') : t('downloadRecords.submit')}
          </button>
        </div>
      </form>
      {saved && <p data-testid="records-download-done" aria-live="polite">{t('downloadRecords.done', { filename: saved })}</p>}
    </section>
  );
}
