import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bus, type ToastRequest } from '@scholia/shared/bus';
import { initI18n } from '@scholia/shared/i18n';
import { watchNetworkStatus } from './network-status.js';

describe('network status toasts', () => {
  const toasts: ToastRequest[] = [];
  const record = (request: ToastRequest) => void toasts.push(request);
  beforeEach(() => {
    initI18n('en');
    toasts.length = 0;
    bus.on('toast:requested', record);
  });
  afterEach(() => bus.off('toast:requested', record));

  it('says "You are offline" when the connection drops and "You are online again" when it returns, on every route', () => {
    const stop = watchNetworkStatus(window);
    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('online'));
    expect(toasts).toEqual([
      { message: 'You are offline', type: 'warning', scope: 'app' },
      { message: 'You are online again', type: 'success', scope: 'app' },
    ]);
    stop();
    window.dispatchEvent(new Event('offline'));
    expect(toasts).toHaveLength(2);
  });
});
