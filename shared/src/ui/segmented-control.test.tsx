import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SegmentedControl } from './segmented-control.js';

describe('SegmentedControl', () => {
  afterEach(cleanup);

  it('is a named group of toggle buttons, the chosen one pressed', () => {
    const onChange = vi.fn();
    render(<SegmentedControl label="View" options={[{ value: 'focus', label: 'Focus' }, { value: 'bulk', label: 'Bulk' }]} value="focus" onChange={onChange} />);
    const group = screen.getByRole('group', { name: 'View' });
    expect(group.className).toBe('sch-control sch-segmented');
    expect(screen.getByRole('button', { name: 'Focus' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Bulk' }).getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Bulk' }));
    expect(onChange).toHaveBeenCalledWith('bulk');
  });
});
