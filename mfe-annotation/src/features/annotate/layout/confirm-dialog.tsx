import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal question in the middle of the screen (the native <dialog>: focus trapped, the page
 * behind inert, Escape cancels).
 */
export function ConfirmDialog({ message, confirmLabel, cancelLabel, onConfirm, onCancel, children }: {
  message: string; confirmLabel: string; cancelLabel: string; onConfirm: () => void; onCancel: () => void; children?: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    // jsdom has no showModal; the dialog is then shown open, not modal.
    if (element && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    return () => element?.close?.();
  }, []);
  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-label={message}
      className="mfe-ann-dialog"
      data-testid="confirm-dialog"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <p>{message}</p>
      {children}
      <div className="mfe-ann-dialog__actions">
        <button type="button" className="sch-button sch-button--ghost" onClick={onCancel}>{cancelLabel}</button>
        <button type="button" className="sch-button" onClick={onConfirm} autoFocus>{confirmLabel}</button>
      </div>
    </dialog>
  );
}
