import './controls.css';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
}

export interface SegmentedControlProps<T extends string> {
  /** The group's name for screen readers. */
  label: string;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
}

/**
 * The UI kit's choice of one view among a few, side by side: toggle buttons in a group, the
 * chosen one pressed (`aria-pressed`) and marked by more than its colour.
 */
export function SegmentedControl<T extends string>({ label, options, value, onChange, className }: SegmentedControlProps<T>) {
  return (
    <div role="group" aria-label={label} className={`sch-control sch-segmented${className ? ` ${className}` : ''}`}>
      {options.map((option) => (
        <button key={option.value} type="button" className="sch-segmented__option" aria-pressed={option.value === value} onClick={() => onChange(option.value)}>
          {option.label}
        </button>
      ))}
    </div>
  );
}
