import type { InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import './controls.css';

export interface SearchInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value'> {
  /** The field's name for screen readers (the placeholder is no name). */
  label: string;
  value: string;
  /** Shows a clear button while there is text; called when it is pressed. */
  onClear?: () => void;
}

/** The UI kit's search field: a magnifier, the theme's colours, a focus ring and a clear button. */
export function SearchInput({ label, value, onClear, className, ...props }: SearchInputProps) {
  const { t } = useTranslation();
  return (
    <span className={`sch-control sch-search${className ? ` ${className}` : ''}`}>
      <svg className="sch-search__icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <circle cx="7" cy="7" r="5" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="M11 11l3.5 3.5" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <input type="search" aria-label={label} className="sch-search__input" value={value} {...props} />
      {onClear && value !== '' && (
        <button type="button" className="sch-search__clear" aria-label={t('controls.clearSearch')} title={t('controls.clearSearch')} onClick={onClear}>
          <span aria-hidden="true">×</span>
        </button>
      )}
    </span>
  );
}
