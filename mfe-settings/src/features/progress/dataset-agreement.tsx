import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { datasetAgreementQuery, queryClient } from '@scholia/shared/api';
import { bus, type AppEvents } from '@scholia/shared/bus';
import { formatNumber, formatPercent } from '@scholia/shared/i18n';
import { SETTINGS_NS } from '../../i18n/register-settings-i18n.js';

const percent = (value: number | null) => (value === null ? '–' : formatPercent(value, 1));
const alpha = (value: number | null) => (value === null ? '–' : formatNumber(value, { minimumFractionDigits: 3, maximumFractionDigits: 3 }));

/** Inter-annotator agreement per question and per annotator, re-read whenever the progress is. */
export function DatasetAgreement({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  const agreement = useQuery(datasetAgreementQuery(datasetId));
  useEffect(() => {
    const refresh = ({ datasetId: id }: AppEvents['progress:refresh-requested']) => {
      if (id === datasetId) void queryClient.invalidateQueries({ queryKey: datasetAgreementQuery(datasetId).queryKey });
    };
    bus.on('progress:refresh-requested', refresh);
    bus.on('dataset:changed', refresh);
    return () => {
      bus.off('progress:refresh-requested', refresh);
      bus.off('dataset:changed', refresh);
    };
  }, [datasetId]);
  const data = agreement.data;
  if (!data) return null;
  const measured = data.questions.filter((q) => q.records > 0);
  return (
    <div data-testid="settings-agreement">
      <h3>{t('progress.agreement.title')}</h3>
      {measured.length === 0 ? (
        <p className="sch-muted">{t('progress.agreement.none')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('progress.agreement.question')}</th>
              <th scope="col">{t('progress.agreement.records')}</th>
              <th scope="col">{t('progress.agreement.percent')}</th>
              <th scope="col">{t('progress.agreement.alpha')}</th>
            </tr>
          </thead>
          <tbody>
            {measured.map((q) => (
              <tr key={q.question.id}>
                <th scope="row">{q.question.name}</th>
                <td>{formatNumber(q.records)}</td>
                <td>{percent(q.percent_agreement)}</td>
                <td>{alpha(q.alpha)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data.annotators.length > 0 && (
        <p data-testid="settings-agreement-annotators">
          {t('progress.agreement.annotators')}:{' '}
          {data.annotators.map((a) => `${a.username ?? a.user_id} ${percent(a.percent_agreement)}`).join(' · ')}
        </p>
      )}
    </div>
  );
}
