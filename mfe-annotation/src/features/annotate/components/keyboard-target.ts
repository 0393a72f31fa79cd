/**
 * Keys typed into a text control belong to it, not to the page's shortcuts. A focused checkbox
 * or radio (a bulk record's selection) takes no arrow keys of its own, so paging still works.
 */
export function isEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  const control = el?.closest?.('textarea, input, select, [contenteditable="true"]');
  if (!control) return false;
  return !(control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio'));
}

/**
 * Widgets that move within themselves with the arrow keys (a span question's labels, a ranking
 * handle being dragged, a slider, a list box): there the arrows are theirs, not the record's.
 */
const ARROW_OWNERS = [
  '[role="radiogroup"]', '[role="listbox"]', '[role="slider"]', '[role="tablist"]', '[role="menu"]',
  '[role="grid"]', '[aria-roledescription="sortable"]', 'select',
].join(', ');

export function ownsArrowKeys(target: EventTarget | null): boolean {
  return Boolean((target as HTMLElement | null)?.closest?.(ARROW_OWNERS));
}
