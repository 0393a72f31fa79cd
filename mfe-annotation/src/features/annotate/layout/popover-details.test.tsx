import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { PopoverDetails } from './popover-details.js';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

let showInner: (show: boolean) => void = () => {};

/** A page menu holding a filters popover, as on a phone; the inner one may mount after the menu. */
function Menu({ innerAtStart }: { innerAtStart: boolean }) {
  const [inner, setInner] = useState(innerAtStart);
  showInner = setInner;
  return (
    <PopoverDetails summary="Menu" className="menu">
      <p>Metrics</p>
      {inner && (
        <PopoverDetails summary="Filters" className="filters">
          <input aria-label="Search" />
        </PopoverDetails>
      )}
    </PopoverDetails>
  );
}

function render(innerAtStart: boolean) {
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(<Menu innerAtStart={innerAtStart} />));
  if (!innerAtStart) act(() => showInner(true));
  const menu = document.querySelector<HTMLDetailsElement>('details.menu')!;
  const filters = document.querySelector<HTMLDetailsElement>('details.filters')!;
  menu.open = true;
  filters.open = true;
  return { menu, filters };
}

const pressEscape = () => act(() => void document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true })));

describe('PopoverDetails', () => {
  for (const [when, innerAtStart] of [['mounted with the menu', true], ['mounted after the menu', false]] as const) {
    it(`closes one popover per Escape, the inner one first (inner ${when})`, () => {
      const { menu, filters } = render(innerAtStart);
      pressEscape();
      expect(filters.open).toBe(false);
      expect(menu.open).toBe(true);
      expect(document.activeElement).toBe(filters.querySelector('summary'));
      pressEscape();
      expect(menu.open).toBe(false);
      expect(document.activeElement).toBe(menu.querySelector('summary'));
    });
  }

  it('closes on a pointer down outside, not inside', () => {
    const { menu, filters } = render(true);
    act(() => void filters.querySelector('input')!.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })));
    expect(filters.open).toBe(true);
    expect(menu.open).toBe(true);
    act(() => void document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })));
    expect(filters.open).toBe(false);
    expect(menu.open).toBe(false);
  });

  it('leaves keys other than Escape alone', () => {
    const { menu, filters } = render(true);
    act(() => void document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })));
    expect([menu.open, filters.open]).toEqual([true, true]);
  });

  it('closes when what it opened for changes (a phone menu once another mode is chosen)', () => {
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    act(() => root!.render(<PopoverDetails summary="Menu" closeOn="focus"><p>Modes</p></PopoverDetails>));
    const details = container.querySelector('details')!;
    act(() => { details.open = true; });
    act(() => root!.render(<PopoverDetails summary="Menu" closeOn="focus"><p>Modes</p></PopoverDetails>));
    expect(details.open).toBe(true);
    act(() => root!.render(<PopoverDetails summary="Menu" closeOn="review"><p>Modes</p></PopoverDetails>));
    expect(details.open).toBe(false);
  });
});
