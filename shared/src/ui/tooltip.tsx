import { useId, type ReactElement, type ReactNode } from 'react';

export interface TooltipProps {
  text: ReactNode;
  children: ReactElement | ReactNode;
  /** Forces the bubble open (copy confirmations), otherwise it shows on hover and focus. */
  open?: boolean;
  placement?: 'top' | 'bottom';
}

/** CSS-driven tooltip; the bubble is linked with aria-describedby for screen readers. */
export function Tooltip({ text, children, open, placement = 'top' }: TooltipProps) {
  const id = useId();
  return (
    <span className="sch-tooltip" data-open={open ? 'true' : undefined} data-placement={placement} aria-describedby={id}>
      {children}
      <span role="tooltip" id={id} className="sch-tooltip__bubble">{text}</span>
    </span>
  );
}
