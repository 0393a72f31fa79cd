import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { bus, type ToastRequest } from '@scholia/shared/bus';
import { DEFAULT_TOAST_POSITION, toastDuration } from './toast-timing.js';

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
 * are shown then; if it cannot be fetched (the connection dropped first: "You are offline"), they
 * show plainly, closing on a click or after their time, as the toaster's own would. A route change closes the page toasts of the screen left behind.
 */
export function DeferredToaster() {
  const [toaster, setToaster] = useState<ToasterModule>();
  const [unfetched, setUnfetched] = useState<readonly ToastRequest[]>([]);
  const waiting = useRef<ToastRequest[]>([]);
  const plainTimers = useRef(new Map<ToastRequest, ReturnType<typeof setTimeout>>());
  const closePlain = (request: ToastRequest) => {
    clearTimeout(plainTimers.current.get(request));
    plainTimers.current.delete(request);
    waiting.current = waiting.current.filter((r) => r !== request);
    setUnfetched([...waiting.current]);
  };
  const loaded = useRef<ToasterModule>(undefined);
  const { pathname } = useLocation();

  useEffect(() => {
    let active = true;
    const load = () => {
      loadToaster().then((module) => {
        if (!active || loaded.current) return;
        loaded.current = module;
        for (const request of waiting.current) module.toastStore.show(request);
        for (const timer of plainTimers.current.values()) clearTimeout(timer);
        plainTimers.current.clear();
        waiting.current = [];
        setUnfetched([]);
        setToaster(module);
      }, () => {
        if (!active) return;
        for (const request of waiting.current) {
          if (!plainTimers.current.has(request)) plainTimers.current.set(request, setTimeout(() => closePlain(request), toastDuration(request.message, request.type)));
        }
        setUnfetched([...waiting.current]);
      });
    };
    const onRequest = (request: ToastRequest) => {
      if (loaded.current) {
        loaded.current.toastStore.show(request);
        return;
      }
      waiting.current.push(request);
      load();
    };
    const onClear = () => {
      if (loaded.current) loaded.current.toastStore.clear();
      for (const request of [...waiting.current]) closePlain(request);
    };
    bus.on('toast:requested', onRequest);
    bus.on('toasts:cleared', onClear);
    const preload = setTimeout(() => (window.requestIdleCallback ?? ((run: () => void) => run()))(load), TOASTER_PRELOAD_MS);
    return () => {
      active = false;
      clearTimeout(preload);
      for (const timer of plainTimers.current.values()) clearTimeout(timer);
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

  if (toaster) return <toaster.Toaster />;
  if (unfetched.length === 0) return null;
  return (
    <div className="sch-toasts" data-position={DEFAULT_TOAST_POSITION}>
      {unfetched.map((request, index) => (
        <div
          key={index}
          className="sch-toast"
          data-type={request.type ?? 'info'}
          data-state="visible"
          role={request.type === 'danger' ? 'alert' : 'status'}
          onClick={() => closePlain(request)}
        >
          <span className="sch-toast__message">{request.message}</span>
        </div>
      ))}
    </div>
  );
}
