import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchJobStatus, forgetExportJob, isJobRunning, readExportJob, type ExportJobEntry, type Job } from '@scholia/shared/api';
import { notify } from '@scholia/shared/bus';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';

/** Time between two job status reads. */
export const EXPORT_POLL_MS = 1500;

export interface ExportJobState {
  /** The export being followed, as kept in local storage. */
  entry?: ExportJobEntry;
  status?: Job['status'];
  /** The last export that ended while this screen was open. */
  outcome?: { entry: ExportJobEntry; status: Job['status']; error?: string };
  follow: (entry: ExportJobEntry) => void;
}

/**
 * Follows the dataset's export job until it ends, picking it up again from local storage after a
 * reload; a toast says how it ended and the entry is forgotten (spec §4).
 */
export function useExportJob(datasetId: string): ExportJobState {
  const { t } = useTranslation(SETTINGS_NS);
  const [entry, setEntry] = useState<ExportJobEntry | undefined>(() => readExportJob(datasetId));
  const [status, setStatus] = useState<Job['status']>();
  const [outcome, setOutcome] = useState<ExportJobState['outcome']>();

  useEffect(() => {
    if (!entry) return undefined;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const job = await fetchJobStatus(entry.jobId);
      if (cancelled) return;
      setStatus(job.status);
      if (isJobRunning(job.status)) {
        timer = setTimeout(() => void poll(), EXPORT_POLL_MS);
        return;
      }
      forgetExportJob(entry.datasetId);
      const values = { name: entry.datasetName, repoId: entry.repoId, status: t(`exportHub.status.${job.status}`), reason: job.error };
      if (job.status === 'finished') notify({ message: t('exportHub.finished', values), type: 'success' });
      else notify({ message: t(job.error ? 'exportHub.failedBecause' : 'exportHub.failed', values), type: 'danger' });
      setOutcome({ entry, status: job.status, error: job.error });
      setEntry(undefined);
    };
    void poll();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [entry, t]);

  const follow = useCallback((next: ExportJobEntry) => {
    setOutcome(undefined);
    setStatus('queued');
    setEntry(next);
  }, []);

  return { entry, status, outcome, follow };
}
