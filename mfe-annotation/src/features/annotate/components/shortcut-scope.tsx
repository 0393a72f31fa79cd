import { createContext, useCallback, useContext, useEffect, useRef, useState, type DependencyList, type KeyboardEvent as ReactKeyboardEvent, type ReactNode, type RefObject } from 'react';
import { shortcutAction, type ShortcutAction } from '../model/shortcuts.js';

/**
 * Where the annotation shortcuts (Ctrl+Enter, Ctrl+S, arrows, Ctrl+Z…) listen: `remote` (the
 * default) only while focus is inside the remote, so a host's own keys stay the host's; `page`
 * also while nothing has focus, for a host that gives the remote the whole screen (Scholia's
 * shell). Focus on the host's own controls (its header, menus, dialogs) never triggers them.
 */
export type ShortcutScope = 'remote' | 'page';

type ShortcutHandler = (action: ShortcutAction, event: KeyboardEvent) => void;

interface ShortcutGate {
  scope: ShortcutScope;
  root: RefObject<HTMLElement | null>;
  /** The handlers of the mounted components, in the order they registered. */
  handlers: Set<ShortcutHandler>;
}

const ShortcutGateContext = createContext<ShortcutGate>({ scope: 'remote', root: { current: null }, handlers: new Set() });

/** Hands a key to each handler in turn; one that takes it (preventDefault) leaves none to the next. */
function dispatchShortcut({ scope, root, handlers }: ShortcutGate, event: KeyboardEvent): void {
  for (const handler of [...handlers]) {
    if (!acceptsShortcut(scope, root.current, event.target)) return;
    const action = shortcutAction(event);
    if (action) handler(action, event);
  }
}

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
 *
 * A key pressed inside it reaches the shortcuts here, once the remote's widgets had their turn,
 * and a key the remote took (preventDefault, by a widget or a shortcut) goes no further: the
 * host's own listeners and React handlers around the remote never act on it as well. Keys it
 * leaves alone go on to the host. In page scope a key pressed while nothing has focus is heard
 * on the document.
 */
export function ShortcutScopeRoot({ scope = 'remote', children }: { scope?: ShortcutScope; children: ReactNode }) {
  const root = useRef<HTMLDivElement>(null);
  const [handlers] = useState(() => new Set<ShortcutHandler>());
  const gate = useRef<ShortcutGate>({ scope, root, handlers });
  gate.current = { scope, root, handlers };
  /** Keys the host had taken before they reached the remote: not the remote's to stop. */
  const takenBefore = useRef(new WeakSet<Event>());

  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.target instanceof Node && root.current?.contains(event.target)) return;
      dispatchShortcut(gate.current, event);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const onKeyDownCapture = (event: ReactKeyboardEvent) => {
    if (event.nativeEvent.defaultPrevented) takenBefore.current.add(event.nativeEvent);
  };
  const onKeyDown = (event: ReactKeyboardEvent) => {
    const native = event.nativeEvent;
    if (takenBefore.current.has(native)) return;
    dispatchShortcut(gate.current, native);
    if (native.defaultPrevented) event.stopPropagation();
  };

  return (
    <ShortcutGateContext.Provider value={gate.current}>
      <div ref={root} tabIndex={-1} className="mfe-ann-root" data-testid="annotation-root" onKeyDownCapture={onKeyDownCapture} onKeyDown={onKeyDown}>{children}</div>
    </ShortcutGateContext.Provider>
  );
}

/**
 * Hands on the shortcut a key stands for, when the scope lets it through (shortcuts.ts says which
 * keys a focused widget keeps). A handler that acts on the key calls `preventDefault`.
 */
export function useShortcuts(onShortcut: ShortcutHandler, deps: DependencyList): void {
  const { handlers } = useContext(ShortcutGateContext);
  useEffect(() => {
    handlers.add(onShortcut);
    return () => { handlers.delete(onShortcut); };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [handlers, ...deps]);
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
