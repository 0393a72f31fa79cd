import type { ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog.js';

/**
 * A modal question in the middle of the screen (the native <dialog>: focus trapped, the page
 * behind inert, Escape cancels).
 */
export function ConfirmDialog({ message, confirmLabel, cancelLabel, onConfirm, onCancel, children }: {
  message: string; confirmLabel: string; cancelLabel: string; onConfirm: () => void; onCancel: () => void; children?: ReactNode;
}) {
  const dialog = useModalDialog();
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
