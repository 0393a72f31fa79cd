import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PANEL_WIDTH, setPanelWidth, usePanelWidth } from './panel-width.js';

/**
 * The edge between the record and the questions panel: drag it, or focus it and use the arrow
 * keys (Home/End for the narrowest and widest); a double click goes back to the default width.
 * The panel sits on the right, so moving the edge left widens it.
 */
export function PanelResizer() {
  const { t } = useTranslation('annotation');
  const width = usePanelWidth();
  const drag = useRef<{ x: number; width: number } | undefined>(undefined);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, width };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setPanelWidth(drag.current.width + drag.current.x - event.clientX, false);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setPanelWidth(drag.current.width + drag.current.x - event.clientX);
    drag.current = undefined;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowLeft: width + PANEL_WIDTH.step, ArrowRight: width - PANEL_WIDTH.step, Home: PANEL_WIDTH.max, End: PANEL_WIDTH.min,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    // The record shortcuts also listen to the arrows: the edge keeps them while it has focus.
    event.preventDefault();
    event.stopPropagation();
    setPanelWidth(next);
  };

  return (
    <div
      className="mfe-ann-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('layout.resizePanel')}
      aria-valuemin={PANEL_WIDTH.min}
      aria-valuemax={PANEL_WIDTH.max}
      aria-valuenow={width}
      tabIndex={0}
      data-testid="panel-resizer"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onDoubleClick={() => setPanelWidth(PANEL_WIDTH.initial)}
      onKeyDown={onKeyDown}
    />
  );
}
