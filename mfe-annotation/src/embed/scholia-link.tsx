import { createContext, useContext, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AnnotationNavigationTarget } from '@scholia/shared';

/** How a link to Scholia's own pages is followed: Scholia's router, the host's `onNavigate`, or not at all. */
type ScholiaNavigation = 'router' | ((target: AnnotationNavigationTarget) => void) | undefined;

const ScholiaNavigationContext = createContext<ScholiaNavigation>('router');

export const ScholiaNavigationProvider = ScholiaNavigationContext.Provider;

/**
 * A link to one of Scholia's own pages. In Scholia's web app it is a link of its router; in
 * another host it goes through the host's `onNavigate`, and without one it is not shown (the
 * host's router knows none of Scholia's paths).
 */
export function ScholiaLink({ to, children }: { to: AnnotationNavigationTarget; children: ReactNode }) {
  const navigation = useContext(ScholiaNavigationContext);
  if (navigation === 'router') return <Link to={to.path}>{children}</Link>;
  if (!navigation) return null;
  return <button type="button" className="mfe-ann-link" onClick={() => navigation(to)}>{children}</button>;
}
