import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../components/markdown.js';

/**
 * The dataset's guidelines in a drawer over the right of the page, opened from the header;
 * Escape or the close button shuts it and gives focus back to the button that opened it, or to
 * the menu holding that button when the menu closed meanwhile (a phone's page menu).
 */
export function GuidelinesDrawer({ guidelines, onClose }: { guidelines: string | null | undefined; onClose: () => void }) {
  const { t } = useTranslation('annotation');
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    return () => focusVisible(opener);
  }, []);
  return (
    <aside
      className="mfe-ann-guidelines mfe-ann-drawer"
      aria-label={t('guidelines.title')}
      data-testid="guidelines-drawer"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onClose();
      }}
    >
      <header className="mfe-ann-drawer__header">
        <h2 data-testid="guidelines-title">{t('guidelines.title')}</h2>
        <button ref={closeButton} type="button" className="sch-button sch-button--ghost" onClick={onClose}>{t('layout.close')}</button>
      </header>
      <div className="mfe-ann-drawer__body">
        {guidelines ? <Markdown source={guidelines} /> : <p className="sch-muted">{t('guidelines.empty')}</p>}
      </div>
    </aside>
  );
}

/** Focuses `element`, or the summary of the outermost closed <details> hiding it. */
function focusVisible(element: HTMLElement | null): void {
  if (!element?.isConnected) return;
  let target: HTMLElement = element;
  for (let details = element.closest('details'); details; details = details.parentElement?.closest('details') ?? null) {
    if (!details.open) target = details.querySelector(':scope > summary') ?? target;
  }
  target.focus();
}
