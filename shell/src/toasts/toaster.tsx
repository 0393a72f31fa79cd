import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToastPosition } from '@scholia/shared/bus';
import { toastStore, type Toast } from './toast-store.js';

export { toastStore };

const POSITIONS: ToastPosition[] = ['top-left', 'top', 'top-right', 'bottom-left', 'bottom', 'bottom-right'];

/** Renders the toasts of the store; the bus feeds the store through `DeferredToaster`. */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.getSnapshot);

  return (
    <>
      {POSITIONS.map((position) => {
        const here = toasts.filter((toast) => toast.position === position);
        if (here.length === 0) return null;
        return (
          <div key={position} className="sch-toasts" data-position={position}>
            {here.map((toast) => <ToastItem key={toast.id} toast={toast} closeLabel={t('common.close')} />)}
          </div>
        );
      })}
    </>
  );
}

function ToastItem({ toast, closeLabel }: { toast: Toast; closeLabel: string }) {
  return (
    <div
      className="sch-toast"
      data-type={toast.type}
      data-state={toast.state}
      role={toast.type === 'danger' ? 'alert' : 'status'}
      onClick={() => toastStore.close(toast.id)}
    >
      <span className="sch-toast__message">{toast.message}</span>
      <button
        type="button"
        className="sch-toast__close"
        aria-label={closeLabel}
        onClick={(event) => {
          event.stopPropagation();
          toastStore.close(toast.id);
        }}
      >
        ×
      </button>
    </div>
  );
}
