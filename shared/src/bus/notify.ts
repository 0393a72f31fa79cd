import type { ToastRequest } from './app-events.js';
import { bus } from './event-bus.js';

/** Asks the shell's toaster to show a message; any remote or shared code may call it. */
export function notify(request: ToastRequest): void {
  bus.emit('toast:requested', request);
}

/** Closes every toast (the global HTTP error handler starts with this, spec §8). */
export function clearNotifications(): void {
  bus.emit('toasts:cleared', undefined);
}
