import { useTranslation } from 'react-i18next';
import { SETTINGS_NS } from '../i18n/register-settings-i18n.js';
import type { SectionForm } from '../lib/use-section-form.js';
import type { Issue } from '../lib/validation.js';

/** Id of the message element next to an input, for aria-describedby. */
export const issueId = (inputId: string) => `${inputId}-issue`;

/** Props that link an input to its validation message. */
export function issueProps(inputId: string, issue: Issue | undefined) {
  return { id: inputId, 'aria-invalid': issue ? true : undefined, 'aria-describedby': issue ? issueId(inputId) : undefined };
}

/** A validation message shown right next to its input (spec §5). */
export function FieldIssue({ inputId, issue }: { inputId: string; issue?: Issue }) {
  const { t } = useTranslation(SETTINGS_NS);
  if (!issue) return null;
  return <p id={issueId(inputId)} className="mfe-settings__issue" data-testid="field-issue">{t(issue.key, issue.params)}</p>;
}

export interface SectionActionsProps<T> {
  form: SectionForm<T>;
  /** Accessible names of the buttons, e.g. "Save Title" when a list has many sections. */
  label?: string;
  /** Show the Restore control (questions, spec §4). */
  restorable?: boolean;
}

/** Save (and Restore) for one section, with its saving state and the time of the last save. */
export function SectionActions<T>({ form, label, restorable = true }: SectionActionsProps<T>) {
  const { t, i18n } = useTranslation(SETTINGS_NS);
  const saving = form.status === 'saving';
  const suffix = label ? ` ${label}` : '';
  return (
    <div className="mfe-settings__actions">
      <button type="submit" className="sch-button" disabled={saving || !form.isDirty} aria-label={`${t('form.save')}${suffix}`}>
        {saving ? t('form.saving') : t('form.save')}
      </button>
      {restorable && form.isDirty && !saving && (
        <button type="button" className="sch-button sch-button--ghost" onClick={form.restore} aria-label={`${t('form.restore')}${suffix}`}>
          {t('form.restore')}
        </button>
      )}
      {form.isDirty && <span className="mfe-settings__badge">{t('form.modified')}</span>}
      <span className="sch-muted" role="status">
        {form.status === 'saved' && form.updatedAt
          ? t('form.savedAt', { time: form.updatedAt.toLocaleTimeString(i18n.language) })
          : form.status === 'restored' ? t('form.restored') : ''}
      </span>
    </div>
  );
}
