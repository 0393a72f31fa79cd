import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteProviders } from '@scholia/shared/ui';
import { i18next } from '@scholia/shared/i18n';
import { registerAnnotationI18n } from '../../../i18n/register-annotation-i18n.js';
import { SHORTCUTS } from '../model/shortcuts.js';
import { ShortcutHelp } from './shortcut-help.js';
import { ShortcutScopeRoot } from './shortcut-scope.js';

describe('shortcut list', () => {
  beforeAll(registerAnnotationI18n);
  afterEach(cleanup);

  it('opens with ? inside the remote and lists every shortcut, in the chosen language', async () => {
    await i18next.changeLanguage('de');
    try {
      render(<RemoteProviders><ShortcutScopeRoot><p data-testid="text">x</p><ShortcutHelp /></ShortcutScopeRoot></RemoteProviders>);
      fireEvent.keyDown(screen.getByTestId('text'), { key: '?', shiftKey: true });
      const list = screen.getByTestId('shortcut-list');
      expect(list.querySelectorAll('tr')).toHaveLength(SHORTCUTS.length);
      expect(list.textContent).toContain('Tastenkürzel');
      expect(list.textContent).toContain('Ctrl+Z');
      fireEvent.click(screen.getByRole('button', { name: 'Schließen' }));
      expect(screen.queryByTestId('shortcut-list')).toBeNull();
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('does not open while an answer is being typed', () => {
    render(<RemoteProviders><ShortcutScopeRoot><textarea data-testid="answer" /><ShortcutHelp /></ShortcutScopeRoot></RemoteProviders>);
    fireEvent.keyDown(screen.getByTestId('answer'), { key: '?', shiftKey: true });
    expect(screen.queryByTestId('shortcut-list')).toBeNull();
  });
});
