import { afterEach, describe, expect, it } from 'vitest';
import { acceptsShortcut } from '../components/shortcut-scope.js';
import { en } from '../../../i18n/en.js';
import { de } from '../../../i18n/de.js';
import { es } from '../../../i18n/es.js';
import { SHORTCUTS, shortcutAction } from './shortcuts.js';

function press(target: Element, key: string, modifiers: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...modifiers });
  target.dispatchEvent(event);
  return event;
}

function mount(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

describe('shortcut keys', () => {
  afterEach(() => { document.body.innerHTML = ''; });

  it('turns the record with the arrows on the page, not in a span label group or a sortable handle', () => {
    const root = mount('<p id="text">x</p><div role="radiogroup"><button role="radio" id="label">A</button></div><button aria-roledescription="sortable" id="handle">⠿</button>');
    expect(shortcutAction(press(root.querySelector('#text')!, 'ArrowRight'))).toBe('next');
    expect(shortcutAction(press(root.querySelector('#text')!, 'ArrowLeft'))).toBe('previous');
    expect(shortcutAction(press(root.querySelector('[role="radiogroup"]')!, 'ArrowRight'))).toBeUndefined();
    expect(shortcutAction(press(root.querySelector('#label')!, 'ArrowRight'))).toBeUndefined();
    expect(shortcutAction(press(root.querySelector('#handle')!, 'ArrowLeft'))).toBeUndefined();
  });

  it('leaves the keys typed into an answer to it; Ctrl+Enter and Ctrl+S type nothing and still act', () => {
    const root = mount('<textarea></textarea><input type="text">');
    for (const field of [root.querySelector('textarea')!, root.querySelector('input')!]) {
      expect(shortcutAction(press(field, 'ArrowRight'))).toBeUndefined();
      expect(shortcutAction(press(field, '?', { shiftKey: true }))).toBeUndefined();
      expect(shortcutAction(press(field, 'z', { ctrlKey: true }))).toBeUndefined();
      expect(shortcutAction(press(field, 'Backspace', { ctrlKey: true }))).toBeUndefined();
      expect(shortcutAction(press(field, 'Enter', { ctrlKey: true }))).toBe('submit');
      expect(shortcutAction(press(field, 's', { metaKey: true }))).toBe('draft');
    }
  });

  it('ignores a key another handler already took, and keys with other modifiers', () => {
    const root = mount('<p>x</p>');
    const taken = new KeyboardEvent('keydown', { key: 'ArrowRight', cancelable: true });
    taken.preventDefault();
    expect(shortcutAction(taken)).toBeUndefined();
    expect(shortcutAction(press(root.firstElementChild!, 'z', { ctrlKey: true, shiftKey: true }))).toBeUndefined();
    expect(shortcutAction(press(root.firstElementChild!, 'ArrowRight', { altKey: true }))).toBeUndefined();
    expect(shortcutAction(press(root.firstElementChild!, 'Z', { ctrlKey: true }))).toBe('undo');
    expect(shortcutAction(press(root.firstElementChild!, '?', { shiftKey: true }))).toBe('help');
  });

  it('acts inside the remote, on an unfocused page in page scope, never on the host or in a dialog', () => {
    const host = mount('<input id="search"><div id="remote"><p id="inside">x</p><dialog open><button id="close">x</button></dialog></div>');
    const remote = host.querySelector<HTMLElement>('#remote')!;
    expect(acceptsShortcut('remote', remote, host.querySelector('#inside'))).toBe(true);
    expect(acceptsShortcut('remote', remote, document.body)).toBe(false);
    expect(acceptsShortcut('page', remote, document.body)).toBe(true);
    expect(acceptsShortcut('page', remote, host.querySelector('#search'))).toBe(false);
    expect(acceptsShortcut('page', remote, host.querySelector('#close'))).toBe(false);
  });

  it('has a description of every shortcut in each language', () => {
    for (const strings of [en, de, es]) {
      for (const { id } of SHORTCUTS) expect(strings.shortcuts[id], id).toBeTruthy();
    }
  });
});
