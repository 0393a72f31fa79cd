import type { SelectHTMLAttributes } from 'react';
import './controls.css';

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  /** The control's name; shown before it unless `hideLabel`. */
  label: string;
  /** Keeps the name for screen readers and the tooltip only, where the chosen option says enough ("Pending"). */
  hideLabel?: boolean;
}

/**
 * The UI kit's drop-down: the browser's own `<select>` (keyboard, screen readers and phones'
 * pickers as users know them) drawn in the theme's colours, with a focus ring and a chevron.
 */
export function Select({ label, hideLabel = false, className, children, ...props }: SelectProps) {
  return (
    <label className={`sch-control sch-select${className ? ` ${className}` : ''}`}>
      <span className={hideLabel ? 'sch-control__hidden' : 'sch-select__label'}>{label}</span>
      <span className="sch-select__box">
        <select className="sch-select__input" title={hideLabel ? label : undefined} {...props}>{children}</select>
      </span>
    </label>
  );
}
