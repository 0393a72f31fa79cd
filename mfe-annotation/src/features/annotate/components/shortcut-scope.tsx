import { createContext, useContext, useEffect, useRef, type DependencyList, type ReactNode, type RefObject } from 'react';

/**
 * Where the annotation shortcuts (Ctrl+Enter, Ctrl+S, arrows, Ctrl+Z…) listen: `remote` (the
 * default) only while focus is inside the remote, so a host's own keys stay the host's; `page`
 * everywhere on the page, for a host that gives the remote the whole screen (Scholia's shell).
 */
export type ShortcutScope = 'remote' | 'page';

interface ShortcutGate {
  scope: ShortcutScope;
  root: RefObject<HTMLElement | null>;
}

const ShortcutGateContext = createContext<ShortcutGate>({ scope: 'remote', root: { current: null } });

/** Whether a key pressed with focus on `target` belongs to the remote's shortcuts. */
export function acceptsShortcut(scope: ShortcutScope, root: HTMLElement | null, target: EventTarget | null): boolean {
  if (scope === 'page') return true;
  return Boolean(root && target instanceof Node && root.contains(target));
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

/** Listens for `keydown` on the document, passing on only the keys the scope lets through. */
export function useShortcutKeys(onKey: (event: KeyboardEvent) => void, deps: DependencyList): void {
  const { scope, root } = useContext(ShortcutGateContext);
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (acceptsShortcut(scope, root.current, event.target)) onKey(event);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scope, root, ...deps]);
}
