import { useEffect, useRef } from 'react';

/**
 * Shows its <dialog> as a modal on mount (focus kept inside, the page behind inert, Escape cancels)
 * and closes it on unmount. jsdom has no showModal: the dialog is then shown open, not modal.
 */
export function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    return () => element?.close?.();
  }, []);
  return dialog;
}
