import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { GuidelinesDrawer } from './guidelines-drawer.js';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

/** A page menu (<details>) holding the button that opens the drawer, as on a phone. */
function pageWithMenu(): { menu: HTMLDetailsElement; opener: HTMLButtonElement; host: HTMLElement } {
  document.body.innerHTML = `
    <details open id="menu"><summary id="menu-summary">Menu</summary>
      <details open id="inner"><summary id="inner-summary">More</summary><button id="opener">Guidelines</button></details>
    </details>
    <div id="host"></div>`;
  return {
    menu: document.getElementById('menu') as HTMLDetailsElement,
    opener: document.getElementById('opener') as HTMLButtonElement,
    host: document.getElementById('host')!,
  };
}

function openDrawer(host: HTMLElement) {
  root = createRoot(host);
  act(() => root!.render(<GuidelinesDrawer guidelines="Be kind" onClose={() => {}} />));
}

describe('closing the guidelines drawer', () => {
  it('gives focus back to the button that opened it', () => {
    const { opener, host } = pageWithMenu();
    opener.focus();
    openDrawer(host);
    expect(document.activeElement?.textContent).toBe('Close');
    act(() => root!.unmount());
    root = undefined;
    expect(document.activeElement).toBe(opener);
  });

  it('focuses the summary of the outermost menu that closed meanwhile, not a hidden button', () => {
    const { menu, opener, host } = pageWithMenu();
    opener.focus();
    openDrawer(host);
    // Tapping the drawer's close button outside the menu closes the menu first.
    menu.open = false;
    (document.getElementById('inner') as HTMLDetailsElement).open = false;
    act(() => root!.unmount());
    root = undefined;
    expect(document.activeElement?.id).toBe('menu-summary');
  });
});
