import { useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@scholia/shared/api';
import { i18next } from '@scholia/shared/i18n';
import { routes } from './routes/route-table.js';

/** Providers shared with every remote: one query cache, one i18n, one router. */
export function App() {
  const router = useMemo(() => createBrowserRouter(routes, { future: {} }), []);
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18next}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </QueryClientProvider>
  );
}

