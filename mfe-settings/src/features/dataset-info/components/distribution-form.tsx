import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { bus, notify } from '@scholia/shared/bus';
import { hasUserResponses, isApiError, updateDataset, type Dataset } from '@scholia/shared/api';
import { SETTINGS_NS } from '../../../i18n/register-settings-i18n.js';
import { useSectionForm } from '../../../lib/use-section-form.js';
import { validateMinSubmitted, type Issues } from '../../../lib/validation.js';
import { FieldIssue, issueProps, SectionActions } from '../../../ui/form-parts.js';

interface DistributionDraft {
  minSubmitted: string;
}

const toDraft = (dataset: Dataset): DistributionDraft => ({ minSubmitted: String(dataset.distribution.min_submitted) });

/** The business code the server answers when responses freeze the distribution (contract §5). */
export const DISTRIBUTION_LOCKED_CODE = 'update_distribution_with_existing_responses';

/**
 * Task distribution (min_submitted); saved on its own. Distribution cannot be changed when user
 * responses exist (spec §4): checked against fresh progress before sending, since the server
 * (like Argilla 2.8) accepts the change; a server refusal with the business code is shown too.
 */
export function DistributionForm({ dataset }: { dataset: Dataset }) {
  const { t } = useTranslation(SETTINGS_NS);
  const validate = useCallback((draft: DistributionDraft) => validateMinSubmitted(draft.minSubmitted), []);
  const refuse = useCallback(async (): Promise<Issues | undefined> => {
    if (!(await hasUserResponses(dataset.id))) return undefined;
    // The same words as the server's business message (spec §8), whichever side refuses.
    notify({ message: t(`business.${DISTRIBUTION_LOCKED_CODE}`), type: 'danger' });
    return { minSubmitted: { key: `business.${DISTRIBUTION_LOCKED_CODE}` } };
  }, [dataset.id, t]);
  const save = useCallback(async (draft: DistributionDraft) => {
    const updated = await updateDataset(dataset.id, {
      distribution: { strategy: 'overlap', min_submitted: Number(draft.minSubmitted.trim()) },
    });
    // Record statuses are recomputed from the new minimum.
    bus.emit('dataset:changed', { datasetId: dataset.id });
    bus.emit('progress:refresh-requested', { datasetId: dataset.id });
    return toDraft(updated);
  }, [dataset.id]);
  const describeFailure = useCallback((error: unknown): Issues | undefined =>
    isApiError(error) && error.code === DISTRIBUTION_LOCKED_CODE
      ? { minSubmitted: { key: `business.${DISTRIBUTION_LOCKED_CODE}` } }
      : undefined, []);
  const form = useSectionForm({ original: toDraft(dataset), validate, save, refuse, describeFailure });
  const inputId = 'settings-min-submitted';
  return (
    <form className="mfe-settings__subsection" data-testid="distribution-form" onSubmit={(event) => { event.preventDefault(); void form.submit(); }}>
      <h3>{t('info.distribution')}</h3>
      <div className="sch-form-row">
        <label htmlFor={inputId}>{t('info.minSubmitted')}</label>
        <input
          {...issueProps(inputId, form.issues.minSubmitted)}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={form.draft.minSubmitted}
          onChange={(event) => form.setDraft({ minSubmitted: event.target.value })}
        />
      </div>
      <FieldIssue inputId={inputId} issue={form.issues.minSubmitted} />
      <p className="sch-muted">{t('info.distributionHelp')}</p>
      <SectionActions form={form} label={t('info.distribution')} />
    </form>
  );
}
