import { isEditable, ownsArrowKeys } from '../components/keyboard-target.js';

/** What a page-level key does on the annotation screen. */
export type ShortcutAction = 'submit' | 'draft' | 'discard' | 'undo' | 'next' | 'previous' | 'help' | 'pick';

/**
 * Every shortcut, in the order the `?` overlay lists them: the page's own and those a focused
 * question answers. `whileTyping`: also while focus is in a text answer (they type nothing there).
 */
export const SHORTCUTS: readonly { id: Exclude<ShortcutAction, 'pick'> | 'pickOption' | 'pickRating' | 'spanLabel' | 'rankMove' | 'nextQuestion'; keys: string; whileTyping?: boolean }[] = [
  { id: 'next', keys: '→' },
  { id: 'previous', keys: '←' },
  { id: 'submit', keys: 'Ctrl+Enter', whileTyping: true },
  { id: 'draft', keys: 'Ctrl+S', whileTyping: true },
  { id: 'discard', keys: 'Ctrl+Backspace' },
  { id: 'undo', keys: 'Ctrl+Z' },
  { id: 'nextQuestion', keys: 'Tab, Shift+Tab' },
  { id: 'pickOption', keys: '1–9' },
  { id: 'pickRating', keys: '0–9' },
  { id: 'spanLabel', keys: '← → / 1–9' },
  { id: 'rankMove', keys: 'Space, ↑ ↓' },
  { id: 'help', keys: '?' },
];

/**
 * The page-level action a key press stands for, or none. Keys a focused widget handles itself
 * (an answer being typed, a label group or a sortable handle moving with the arrows, a key
 * another handler already took) never reach the page.
 */
export function shortcutAction(event: KeyboardEvent): ShortcutAction | undefined {
  if (event.defaultPrevented || event.isComposing) return undefined;
  const ctrl = event.ctrlKey || event.metaKey;
  const typing = isEditable(event.target);
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (ctrl) {
    if (event.altKey || event.shiftKey) return undefined;
    if (key === 'Enter') return 'submit';
    if (key === 's') return 'draft';
    // In a text answer these keys delete a word and undo typing.
    if (typing) return undefined;
    if (key === 'Backspace') return 'discard';
    if (key === 'z') return 'undo';
    return undefined;
  }
  if (typing || event.altKey) return undefined;
  if (key === '?') return 'help';
  // A digit typed where no question took it (the record's text, the page): the record's
  // current question answers it.
  if (/^[0-9]$/.test(key)) return 'pick';
  if (event.shiftKey || ownsArrowKeys(event.target)) return undefined;
  if (key === 'ArrowRight') return 'next';
  if (key === 'ArrowLeft') return 'previous';
  return undefined;
}
