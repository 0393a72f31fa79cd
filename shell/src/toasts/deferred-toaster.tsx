import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { bus, type ToastRequest } from '@scholia/shared/bus';

type ToasterModule = typeof import('./toaster.js');

let loading: Promise<ToasterModule> | undefined;
/** The toaster's code, fetched once; a failed download is tried again at the next call. */
export function loadToaster(): Promise<ToasterModule> {
  loading ??= import('./toaster.js').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * When the code comes unasked: after the first screen's own downloads, once the browser is idle
 * (it must be here before the connection drops, for "You are offline").
 */
export const TOASTER_PRELOAD_MS = 3000;

/**
 * The shell's toasts, out of the first download: the first paint shows none, so their code comes
 * a few seconds later, or with the first toast. Bus requests made before it arrives wait and
 * are shown then. A route change closes the page toasts of the screen left behind.
 */
export function DeferredToaster() {
  const [toaster, setToaster] = useState<ToasterModule>();
  const loaded = useRef<ToasterModule>(undefined);
  const { pathname } = useLocation();

  useEffect(() => {
    let active = true;
    let early: ToastRequest[] = [];
    const load = () => {
      loadToaster().then((module) => {
        if (!active || loaded.current) return;
        loaded.current = module;
        for (const request of early) module.toastStore.show(request);
        early = [];
        setToaster(module);
      }, () => undefined);
    };
    const onRequest = (request: ToastRequest) => {
      if (loaded.current) {
        loaded.current.toastStore.show(request);
        return;
      }
      early.push(request);
      load();
    };
    const onClear = () => {
      if (loaded.current) loaded.current.toastStore.clear();
      else early = [];
    };
    bus.on('toast:requested', onRequest);
    bus.on('toasts:cleared', onClear);
    const preload = setTimeout(() => (window.requestIdleCallback ?? ((run: () => void) => run()))(load), TOASTER_PRELOAD_MS);
    return () => {
      active = false;
      clearTimeout(preload);
      bus.off('toast:requested', onRequest);
      bus.off('toasts:cleared', onClear);
    };
  }, []);

  const shownOn = useRef(pathname);
  useEffect(() => {
    if (shownOn.current === pathname) return;
    shownOn.current = pathname;
    loaded.current?.toastStore.leavePage();
  }, [pathname]);

  return toaster ? <toaster.Toaster /> : null;
}
