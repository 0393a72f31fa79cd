import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changePassword, isApiError } from '@scholia/shared/api';
import { notify } from '@scholia/shared/bus';

/** Contract §6.4: passwords are 8..100 characters. */
const MIN_LENGTH = 8;
const MAX_LENGTH = 100;

type Field = 'current' | 'next' | 'repeat';
type FieldErrors = Partial<Record<Field | 'form', string>>;

const FIELD_IDS: Record<Field, string> = { current: 'password-current', next: 'password-new', repeat: 'password-repeat' };
const AUTOCOMPLETE: Record<Field, string> = { current: 'current-password', next: 'new-password', repeat: 'new-password' };
const FIELDS: Field[] = ['current', 'next', 'repeat'];

export interface ChangePasswordProps {
  /** The signed-in user's name, for password managers to store the new password under. */
  username: string;
}

/**
 * My settings → Password: the current password, the new one twice. Each refusal is said under its
 * field, which is marked invalid, described by it and focused; other sessions end on success.
 */
export function ChangePassword({ username }: ChangePasswordProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<Field, string>>({ current: '', next: '', repeat: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  // Focused once rendered, so a screen reader reads the field together with its new error.
  useEffect(() => {
    const first = FIELDS.find((field) => errors[field]);
    if (first) inputs.current[first]?.focus();
  }, [errors]);

  const show = (found: FieldErrors) => setErrors(found);

  function check(): FieldErrors {
    const found: FieldErrors = {};
    if (!values.current) found.current = t('userSettings.password.currentRequired');
    if (values.next.length < MIN_LENGTH || values.next.length > MAX_LENGTH) {
      found.next = t('userSettings.password.newLength', { min: MIN_LENGTH, max: MAX_LENGTH });
    } else if (values.repeat !== values.next) found.repeat = t('userSettings.password.mismatch');
    return found;
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = check();
    if (Object.keys(found).length > 0) return show(found);
    setSaving(true);
    try {
      await changePassword({ current_password: values.current, new_password: values.next });
      setValues({ current: '', next: '', repeat: '' });
      setErrors({});
      notify({ message: t('userSettings.password.done'), type: 'success' });
    } catch (error) {
      const status = isApiError(error) ? error.status : undefined;
      if (status === 403) show({ current: t('userSettings.password.wrongCurrent') });
      else if (status === 422) show({ next: t('userSettings.password.newLength', { min: MIN_LENGTH, max: MAX_LENGTH }) });
      else if (status === 429) show({ form: t('userSettings.password.tooManyTries') });
      // Any other answer was shown by the global handler (changePassword); this is no answer at all.
      else if (status === undefined) show({ form: t('http.500') });
    }
    setSaving(false);
  }

  const label: Record<Field, string> = {
    current: t('userSettings.password.current'),
    next: t('userSettings.password.new'),
    repeat: t('userSettings.password.repeat'),
  };

  return (
    <section aria-labelledby="change-password-title" className="sch-change-password">
      <h2 id="change-password-title">{t('userSettings.password.title')}</h2>
      <p id="change-password-intro">{t('userSettings.password.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-describedby="change-password-intro">
        {/* Not shown: it tells a password manager whose password changes. */}
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        {FIELDS.map((field) => (
          <div className="sch-change-password__field" key={field}>
            <label htmlFor={FIELD_IDS[field]}>{label[field]}</label>
            <input
              ref={(element) => { inputs.current[field] = element; }}
              id={FIELD_IDS[field]}
              name={FIELD_IDS[field]}
              type="password"
              autoComplete={AUTOCOMPLETE[field]}
              required
              value={values[field]}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={errors[field] ? `${FIELD_IDS[field]}-error` : undefined}
              onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
            />
            {errors[field] && <p id={`${FIELD_IDS[field]}-error`} className="sch-field-error">{errors[field]}</p>}
          </div>
        ))}
        {errors.form && <p role="alert" className="sch-field-error">{errors.form}</p>}
        <button type="submit" className="sch-button" disabled={saving}>
          {saving ? t('userSettings.password.saving') : t('userSettings.password.submit')}
        </button>
      </form>
    </section>
  );
}
