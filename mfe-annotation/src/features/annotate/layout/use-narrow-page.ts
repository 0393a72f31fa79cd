import { useLayoutEffect, useState } from 'react';

/** The page's width at or under which it is one column: the CSS container query's (mfe-annotation.css). */
export const NARROW_PAGE_PX = 760;

/**
 * Whether the page element is narrow (a phone, or a narrow element of a host page), followed as it
 * resizes. The header takes another shape then, which CSS alone cannot give: its controls move
 * into a menu. Without ResizeObserver (a test's DOM) the page counts as wide.
 */
export function useNarrowPage(element: HTMLElement | null): boolean {
  const [narrow, setNarrow] = useState(false);
  useLayoutEffect(() => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setNarrow(element.getBoundingClientRect().width <= NARROW_PAGE_PX);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return narrow;
}
