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
