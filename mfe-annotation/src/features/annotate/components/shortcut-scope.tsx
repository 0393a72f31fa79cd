import { createContext, useCallback, useContext, useEffect, useRef, type DependencyList, type ReactNode, type RefObject } from 'react';
import { shortcutAction, type ShortcutAction } from '../model/shortcuts.js';

/**
 * Where the annotation shortcuts (Ctrl+Enter, Ctrl+S, arrows, Ctrl+Z…) listen: `remote` (the
 * default) only while focus is inside the remote, so a host's own keys stay the host's; `page`
 * also while nothing has focus, for a host that gives the remote the whole screen (Scholia's
 * shell). Focus on the host's own controls (its header, menus, dialogs) never triggers them.
 */
export type ShortcutScope = 'remote' | 'page';

interface ShortcutGate {
  scope: ShortcutScope;
  root: RefObject<HTMLElement | null>;
}

const ShortcutGateContext = createContext<ShortcutGate>({ scope: 'remote', root: { current: null } });

/** Whether a key pressed with focus on `target` belongs to the remote's shortcuts. */
export function acceptsShortcut(scope: ShortcutScope, root: HTMLElement | null, target: EventTarget | null): boolean {
  if (!root || !(target instanceof Node)) return false;
  const nothingFocused = target === target.ownerDocument?.body || target === target.ownerDocument?.documentElement;
  if (!root.contains(target)) return scope === 'page' && nothingFocused;
  // A dialog of the remote (the shortcut list, a confirmation) takes its own keys.
  return !(target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"], dialog'));
}

/**
 * The remote's root element. Focusable (tabIndex -1), so a click on its text moves focus inside
 * and the shortcuts answer without a field being focused.
 */
export function ShortcutScopeRoot({ scope = 'remote', children }: { scope?: ShortcutScope; children: ReactNode }) {
  const root = useRef<HTMLDivElement>(null);
  return (
    <ShortcutGateContext.Provider value={{ scope, root }}>
      <div ref={root} tabIndex={-1} className="mfe-ann-root" data-testid="annotation-root">{children}</div>
    </ShortcutGateContext.Provider>
  );
}

/**
 * Listens for `keydown` on the document and hands on the shortcut a key stands for, when the
 * scope lets it through (shortcuts.ts says which keys a focused widget keeps).
 */
export function useShortcuts(onShortcut: (action: ShortcutAction, event: KeyboardEvent) => void, deps: DependencyList): void {
  const { scope, root } = useContext(ShortcutGateContext);
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (!acceptsShortcut(scope, root.current, event.target)) return;
      const action = shortcutAction(event);
      if (action) onShortcut(action, event);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scope, root, ...deps]);
}

/**
 * Whether the remote may move focus now (to the question a new record starts on): when focus is
 * inside it already, or, in page scope, when nothing has focus. A host's focused control keeps it.
 */
export function useMayTakeFocus(): () => boolean {
  const { scope, root } = useContext(ShortcutGateContext);
  return useCallback(() => {
    const active = document.activeElement;
    if (active && root.current?.contains(active)) return true;
    return scope === 'page' && (!active || active === document.body || active === document.documentElement);
  }, [scope, root]);
}
