import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A toolbar button (<details>/<summary>) whose panel opens over the content instead of pushing
 * it down; a click outside closes it, and Escape closes the innermost open one (a popover inside
 * a phone's page menu first, the menu with the next Escape).
 */
const POPOVER_CLASS = 'mfe-ann-popover';

export interface PopoverDetailsProps {
  summary: ReactNode;
  className?: string;
  onToggle?: (open: boolean) => void;
  /** A new value closes the panel: what it opened for is done (a phone's menu once the mode changed). */
  closeOn?: unknown;
  children: ReactNode;
}

export function PopoverDetails({ summary, className = '', onToggle, closeOn, children }: PopoverDetailsProps) {
  const details = useRef<HTMLDetailsElement>(null);
  const firstCloseOn = useRef(closeOn);
  useEffect(() => {
    if (firstCloseOn.current === closeOn) return;
    firstCloseOn.current = closeOn;
    if (details.current) details.current.open = false;
  }, [closeOn]);
  useEffect(() => {
    const close = (event: Event) => {
      const element = details.current;
      if (!element?.open) return;
      if (!(event instanceof KeyboardEvent)) {
        if (!element.contains(event.target as Node)) element.open = false;
        return;
      }
      // One Escape, one popover: an inner one open, or already closed by this key, goes first.
      if (event.key !== 'Escape' || event.defaultPrevented || element.querySelector(`.${POPOVER_CLASS}[open]`)) return;
      event.preventDefault();
      element.open = false;
      element.querySelector('summary')?.focus();
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, []);
  return (
    <details ref={details} className={`${POPOVER_CLASS} ${className}`} onToggle={(event) => onToggle?.(event.currentTarget.open)}>
      <summary>{summary}</summary>
      <div className="mfe-ann-popover__panel">{children}</div>
    </details>
  );
}
