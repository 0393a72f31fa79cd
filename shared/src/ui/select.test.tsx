import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Select } from './select.js';

describe('Select', () => {
  afterEach(cleanup);

  it('is named by its label, shown or kept for screen readers and the tooltip, and reports the choice', () => {
    const onChange = vi.fn();
    render(
      <>
        <Select label="Sort by" value="a" onChange={(e) => onChange(e.target.value)}><option value="a">A</option><option value="b">B</option></Select>
        <Select label="Status" hideLabel value="pending" onChange={() => {}}><option value="pending">Pending</option></Select>
      </>,
    );
    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    expect(sort.className).toBe('sch-select__input');
    expect(screen.getByText('Sort by').className).toBe('sch-select__label');
    fireEvent.change(sort, { target: { value: 'b' } });
    expect(onChange).toHaveBeenCalledWith('b');

    const status = screen.getByRole('combobox', { name: 'Status' });
    expect(screen.getByText('Status').className).toBe('sch-control__hidden');
    expect(status.getAttribute('title')).toBe('Status');
  });
});
