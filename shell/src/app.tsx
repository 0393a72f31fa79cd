import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@scholia/shared/api';
import { i18next } from '@scholia/shared/i18n';
import { ShellRoot } from './routes/route-table.js';

/** Providers shared with every remote: one query cache, one i18n, one router. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18next}>
        {/* Plain updates, not transitions: a control bound to the URL (the annotation filters)
            shows its new state at once. The guarded route table keeps the previous screen
            itself while the next one's guard and code load. */}
        <BrowserRouter useTransitions={false}><ShellRoot /></BrowserRouter>
      </I18nextProvider>
    </QueryClientProvider>
  );
}

