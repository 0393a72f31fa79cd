import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Avatar, AVATAR_SIZES, avatarInitials } from './avatar.js';

describe('Avatar', () => {
  afterEach(cleanup);
  it('shows the first two letters of the username', () => {
    expect(avatarInitials('owner')).toBe('OW');
    expect(avatarInitials('x')).toBe('X');
    const { container } = render(<Avatar username="annotator" size="MINI" />);
    const el = container.querySelector('.sch-avatar') as HTMLElement;
    expect(el.textContent).toBe('AN');
    expect(el.style.width).toBe(`${AVATAR_SIZES.MINI}px`);
    expect(AVATAR_SIZES).toEqual({ MINI: 26, SMALL: 34, MEDIUM: 45 });
  });
});
