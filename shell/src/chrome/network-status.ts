import i18next from 'i18next';
import { notify } from '@scholia/shared/bus';

/** Offline and back-online toasts (spec §4). Returns the unsubscribe function. */
export function watchNetworkStatus(target: Window = window): () => void {
  const offline = () => notify({ message: i18next.t('network.offline'), type: 'warning', scope: 'app' });
  const online = () => notify({ message: i18next.t('network.online'), type: 'success', scope: 'app' });
  target.addEventListener('offline', offline);
  target.addEventListener('online', online);
  return () => {
    target.removeEventListener('offline', offline);
    target.removeEventListener('online', online);
  };
}
