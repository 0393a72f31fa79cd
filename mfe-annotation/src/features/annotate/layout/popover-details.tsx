import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A toolbar button (<details>/<summary>) whose panel opens over the content instead of pushing
 * it down; a click outside or Escape closes it.
 */
export function PopoverDetails({ summary, className = '', onToggle, children }: { summary: ReactNode; className?: string; onToggle?: (open: boolean) => void; children: ReactNode }) {
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: Event) => {
      const element = details.current;
      if (!element?.open) return;
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !element.contains(event.target as Node)) {
        element.open = false;
        if (event instanceof KeyboardEvent) element.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, []);
  return (
    <details ref={details} className={`mfe-ann-popover ${className}`} onToggle={(event) => onToggle?.(event.currentTarget.open)}>
      <summary>{summary}</summary>
      <div className="mfe-ann-popover__panel">{children}</div>
    </details>
  );
}
