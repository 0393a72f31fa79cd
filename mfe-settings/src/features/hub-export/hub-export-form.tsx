import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError, startHubExport, type Dataset } from '@scholia/shared/api';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';
import { hasIssues, validateHubExport } from '../../lib/validation.js';
import { FieldIssue, issueProps } from '../../ui/form-parts.js';
import { useExportJob } from './use-export-job.js';

interface ExportDraft {
  owner: string;
  name: string;
  token: string;
  private: boolean;
}

/** The hub export form of spec §2 (owner, dataset name, token, private) and the job it starts. */
export function HubExportForm({ dataset }: { dataset: Dataset }) {
  const { t } = useTranslation(SETTINGS_NS);
  const [draft, setDraft] = useState<ExportDraft>({ owner: '', name: dataset.name, token: '', private: false });
  const [attempted, setAttempted] = useState(false);
  const [sending, setSending] = useState(false);
  const [serverError, setServerError] = useState<string>();
  const job = useExportJob(dataset.id);
  const issues = attempted ? validateHubExport(draft) : {};
  const running = Boolean(job.entry);

  const edit = (patch: Partial<ExportDraft>) => {
    setServerError(undefined);
    setDraft((d) => ({ ...d, ...patch }));
  };

  async function onSubmit() {
    setAttempted(true);
    if (hasIssues(validateHubExport(draft))) return;
    setSending(true);
    setServerError(undefined);
    try {
      job.follow(await startHubExport(dataset, draft));
      setDraft((d) => ({ ...d, token: '' })); // never keep the token around
      setAttempted(false);
    } catch (error) {
      setServerError(isApiError(error) ? (error.detail ?? error.message) : String(error));
    } finally {
      setSending(false);
    }
  }

  const id = 'settings-export';
  const statusText = (status?: string) => (status ? t(`exportHub.status.${status}`) : '…');
  return (
    <section className="sch-card mfe-settings__section" aria-labelledby="settings-export-title">
      <h2 id="settings-export-title">{t('exportHub.title')}</h2>
      <p className="sch-muted">{t('exportHub.intro')}</p>
      <form noValidate data-testid="hub-export-form" onSubmit={(event) => { event.preventDefault(); void onSubmit(); }}>
        <div className="sch-form-row">
          <label htmlFor={`${id}-owner`}>{t('exportHub.owner')}</label>
          <input {...issueProps(`${id}-owner`, issues.owner)} value={draft.owner} autoComplete="off"
            onChange={(event) => edit({ owner: event.target.value })} />
        </div>
        <FieldIssue inputId={`${id}-owner`} issue={issues.owner} />
        <div className="sch-form-row">
          <label htmlFor={`${id}-name`}>{t('exportHub.name')}</label>
          <input {...issueProps(`${id}-name`, issues.name)} value={draft.name} autoComplete="off"
            onChange={(event) => edit({ name: event.target.value })} />
        </div>
        <FieldIssue inputId={`${id}-name`} issue={issues.name} />
        <div className="sch-form-row">
          <label htmlFor={`${id}-token`}>{t('exportHub.token')}</label>
          <input {...issueProps(`${id}-token`, issues.token)} type="password" value={draft.token} autoComplete="off"
            onChange={(event) => edit({ token: event.target.value })} />
        </div>
        <FieldIssue inputId={`${id}-token`} issue={issues.token} />
        <p className="sch-muted">{t('exportHub.tokenHint')}</p>
        <div className="sch-form-row">
          <input id={`${id}-private`} type="checkbox" checked={draft.private} onChange={(event) => edit({ private: event.target.checked })} />
          <label htmlFor={`${id}-private`}>{t('exportHub.private')}</label>
        </div>
        {serverError && <p className="mfe-settings__issue" data-testid="export-server-error">{serverError}</p>}
        <div className="mfe-settings__actions">
          <button type="submit" className="sch-button" disabled={sending || running}>
            {sending ? t('exportHub.submitting') : t('exportHub.submit')}
          </button>
        </div>
      </form>
      {job.entry && (
        <p data-testid="export-job-status" aria-live="polite">
          {t('exportHub.following', { repoId: job.entry.repoId, jobId: job.entry.jobId, status: statusText(job.status) })}
        </p>
      )}
      {!job.entry && job.outcome && (
        <p data-testid="export-job-outcome" aria-live="polite">
          {job.outcome.status === 'finished'
            ? t('exportHub.finished', { name: job.outcome.entry.datasetName, repoId: job.outcome.entry.repoId })
            : t(job.outcome.error ? 'exportHub.failedBecause' : 'exportHub.failed', { name: job.outcome.entry.datasetName, status: statusText(job.outcome.status), reason: job.outcome.error })}
        </p>
      )}
    </section>
  );
}
