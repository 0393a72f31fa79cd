import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { initI18n } from '@scholia/shared/i18n';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerSettingsI18n } from '../i18n/register-settings-i18n.js';

/** Renders with the providers a host gives a remote, and this remote's strings registered. */
export function renderRemote(ui: ReactNode, language = 'en') {
  registerSettingsI18n();
  void initI18n().changeLanguage(language);
  return render(<RemoteProviders>{ui}</RemoteProviders>);
}
