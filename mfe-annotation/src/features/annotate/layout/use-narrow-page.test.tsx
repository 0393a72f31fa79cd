import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NARROW_PAGE_PX, useNarrowPage } from './use-narrow-page.js';

let width = 0;
let resized: (() => void) | undefined;

class FakeResizeObserver {
  constructor(callback: () => void) {
    resized = callback;
  }
  observe() {}
  disconnect() {
    resized = undefined;
  }
}

function Page() {
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const narrow = useNarrowPage(element);
  return <div ref={setElement} data-testid="page">{narrow ? 'narrow' : 'wide'}</div>;
}

describe('useNarrowPage', () => {
  afterEach(cleanup);

  it('follows the page element\'s width, narrow up to the container query\'s 760 px', () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(() => ({ width }) as DOMRect);
    width = 390;
    render(<Page />);
    expect(screen.getByTestId('page').textContent).toBe('narrow');
    width = NARROW_PAGE_PX + 1;
    act(() => resized?.());
    expect(screen.getByTestId('page').textContent).toBe('wide');
    width = NARROW_PAGE_PX;
    act(() => resized?.());
    expect(screen.getByTestId('page').textContent).toBe('narrow');
  });

  it('counts the page as wide where nothing can measure it', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    render(<Page />);
    expect(screen.getByTestId('page').textContent).toBe('wide');
  });
});
