import { useTranslation } from 'react-i18next';
import { formatNumber, formatPercent } from '@scholia/shared/i18n';
import { useDatasetAgreement } from '../api/get-agreement.js';

const percent = (value: number | null) => (value === null ? '–' : formatPercent(value, 1));
const alpha = (value: number | null) => (value === null ? '–' : formatNumber(value, { minimumFractionDigits: 3, maximumFractionDigits: 3 }));

/** Annotator agreement per question, under the progress of owners and admins. */
export function AgreementSummary({ datasetId }: { datasetId: string }) {
  const { t } = useTranslation('annotation');
  const measured = useDatasetAgreement(datasetId, true).data?.questions.filter((q) => q.records > 0);
  if (!measured || measured.length === 0) return null;
  return (
    <p className="sch-muted" data-testid="annotation-agreement">
      {t('format.labelled', {
        label: t('agreement.title'),
        value: measured.map((q) => t('agreement.question', { name: q.question.name, percent: percent(q.percent_agreement), alpha: alpha(q.alpha) })).join(t('format.listSeparator')),
      })}
    </p>
  );
}
