import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from '../model/shortcuts.js';
import { useShortcuts } from './shortcut-scope.js';
import { useModalDialog } from '../layout/use-modal-dialog.js';

/** The list of every shortcut, in a modal dialog (native <dialog>: focus kept inside, Escape closes). */
function ShortcutDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('annotation');
  const titleId = useId();
  const dialog = useModalDialog();
  return (
    <dialog ref={dialog} className="mfe-ann-dialog mfe-ann-shortcut-list" aria-labelledby={titleId} data-testid="shortcut-list" onCancel={(event) => { event.preventDefault(); onClose(); }}>
      <h2 id={titleId}>{t('shortcuts.title')}</h2>
      <table>
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.id}>
              <th scope="row"><kbd>{shortcut.keys}</kbd></th>
              <td>{t(`shortcuts.${shortcut.id}`)}{shortcut.whileTyping && <span className="sch-muted"> {t('shortcuts.whileTyping')}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mfe-ann-dialog__actions">
        <button type="button" className="sch-button" onClick={onClose} autoFocus>{t('shortcuts.close')}</button>
      </div>
    </dialog>
  );
}

/** A button and the `?` key open the shortcut list; focus goes back where it was on close. */
export function ShortcutHelp() {
  const { t } = useTranslation('annotation');
  const [open, setOpen] = useState(false);
  const opener = useRef<Element | null>(null);
  const show = () => {
    opener.current = document.activeElement;
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    if (opener.current instanceof HTMLElement) opener.current.focus();
  };
  useShortcuts((action, event) => {
    if (action !== 'help') return;
    event.preventDefault();
    show();
  }, []);
  return (
    <>
      <button type="button" className="sch-button sch-button--ghost" aria-haspopup="dialog" aria-keyshortcuts="?" data-testid="shortcut-help" title={t('shortcuts.open')} onClick={show}>
        <span className="mfe-ann-shortcut-help__key" aria-hidden="true">?</span>
        <span className="mfe-ann-shortcut-help__label">{t('shortcuts.open')}</span>
      </button>
      {open && <ShortcutDialog onClose={close} />}
    </>
  );
}
