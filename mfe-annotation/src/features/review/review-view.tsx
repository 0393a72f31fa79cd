import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchRecordsForReview, validateAgreeingRecords, type Field, type Question, type ReviewStatus } from '@scholia/shared/api';
import { notify } from '@scholia/shared/bus';
import { useApiConnection } from '../../embed/instance-connection.js';
import { formatNumber } from '@scholia/shared/i18n';
import { Select } from '@scholia/shared/ui';
import { RecordFields } from '../annotate/components/record-fields.js';
import { ReviewPanel } from './review-panel.js';

const STATUSES: readonly ReviewStatus[] = ['completed', 'validated', 'pending'];

/**
 * Review mode's own queue (owners and admins): the dataset's records by overall status, one at a
 * time, whoever answered them, so completed and validated records are reachable too.
 */
export function ReviewView({ datasetId, fields, questions }: { datasetId: string; fields: Field[]; questions: Question[] }) {
  const { t } = useTranslation('annotation');
  const [status, setStatus] = useState<ReviewStatus>('completed');
  const [index, setIndex] = useState(0);
  const connection = useApiConnection();
  const page = useQuery({
    queryKey: ['review-records', datasetId, status, index],
    queryFn: () => searchRecordsForReview(datasetId, status, { offset: index, limit: 1 }, connection),
    placeholderData: keepPreviousData,
  });
  const total = page.data?.total ?? 0;
  const record = page.data?.items[0]?.record;
  // Reopening under the validated view makes the list shorter: stay within it.
  const last = Math.max(0, total - 1);
  if (page.data && index > last) setIndex(last);
  const [validatingAll, setValidatingAll] = useState(false);

  // A validated record is done with: the next one shows (the queue may keep it, or drop it).
  const onChanged = async (change: 'validated' | 'reopened') => {
    const before = record?.id;
    const { data } = await page.refetch();
    if (change === 'validated' && data && data.items[0]?.record.id === before && index < data.total - 1) setIndex(index + 1);
  };

  const validateAll = async () => {
    setValidatingAll(true);
    try {
      const result = await validateAgreeingRecords(datasetId, connection);
      notify({ message: t('review.validatedAgreeing', { count: result.validated, disagreeing: result.disagreeing }), type: 'success' });
      await page.refetch();
    } catch {
      // The global error handler said why.
    } finally {
      setValidatingAll(false);
    }
  };

  return (
    <section className="mfe-ann-review-view" data-testid="review-view">
      <div className="mfe-ann-toolbar">
        <Select
          label={t('review.queueStatus')}
          data-testid="review-status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as ReviewStatus);
            setIndex(0);
          }}
        >
          {STATUSES.map((value) => (
            <option key={value} value={value}>{t(`review.queue_${value}`)}</option>
          ))}
        </Select>
        {total > 0 && (
          <span data-testid="review-position">{t('review.position', { index: formatNumber(index + 1), total: formatNumber(total) })}</span>
        )}
        <button type="button" className="sch-button sch-button--ghost" disabled={index === 0} onClick={() => setIndex(index - 1)}>
          {t('review.previous')}
        </button>
        <button type="button" className="sch-button sch-button--ghost" disabled={index >= last} onClick={() => setIndex(index + 1)}>
          {t('review.next')}
        </button>
        <button type="button" className="sch-button sch-button--ghost" data-testid="validate-agreeing" disabled={validatingAll} onClick={() => void validateAll()}>
          {t('review.validateAgreeing')}
        </button>
      </div>
      {page.isPending && <p className="sch-loading" aria-busy="true">…</p>}
      {page.data && !record && <p className="mfe-ann-empty" data-testid="review-empty">{t('review.empty')}</p>}
      {record && (
        <div data-testid="review-record" data-record-id={record.id}>
          <RecordFields fields={fields} record={record} />
          <ReviewPanel key={record.id} datasetId={datasetId} recordId={record.id} fields={fields} questions={questions} onChanged={(change) => void onChanged(change)} />
        </div>
      )}
    </section>
  );
}
