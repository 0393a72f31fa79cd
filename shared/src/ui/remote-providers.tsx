import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../api/connection.js';
import { initI18n } from '../i18n/init-i18n.js';

export interface RemoteProvidersProps {
  children: ReactNode;
  /** Path the remote's in-memory router starts at. */
  initialPath?: string;
}

/**
 * What the shell normally provides, for a remote mounted through single-spa on a page with no
 * React of its own: the query cache, i18n and a memory router (the host owns the URL).
 */
export function RemoteProviders({ children, initialPath = '/' }: RemoteProvidersProps) {
  const i18n = initI18n();
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[initialPath]}>{children}</MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
