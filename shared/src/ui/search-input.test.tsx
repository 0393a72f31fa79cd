import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, initI18n } from '../i18n/init-i18n.js';
import { RemoteProviders } from './remote-providers.js';
import { SearchInput } from './search-input.js';

describe('SearchInput', () => {
  beforeAll(() => initI18n('en'));
  afterEach(cleanup);

  it('is a named search box whose clear button, in the reader\'s language, shows only while there is text', async () => {
    const onClear = vi.fn();
    const { rerender } = render(<RemoteProviders><SearchInput label="Text search" placeholder="Search records" value="" onChange={() => {}} onClear={onClear} /></RemoteProviders>);
    expect(screen.getByRole('searchbox', { name: 'Text search' }).getAttribute('placeholder')).toBe('Search records');
    expect(screen.queryByRole('button')).toBeNull();

    rerender(<RemoteProviders><SearchInput label="Text search" value="cats" onChange={() => {}} onClear={onClear} /></RemoteProviders>);
    fireEvent.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(onClear).toHaveBeenCalledTimes(1);

    await changeLanguage('de');
    try {
      expect(screen.getByRole('button', { name: 'Suche leeren' })).toBeTruthy();
    } finally {
      await changeLanguage('en');
    }
  });
});
