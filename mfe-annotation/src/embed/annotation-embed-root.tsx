import { QueryClientContext, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useContext, useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { MemoryRouter, useInRouterContext } from 'react-router-dom';
import type { AnnotationAppProps } from '@scholia/shared';
import { datasetProgressQuery, queryClient } from '@scholia/shared/api';
import { bus } from '@scholia/shared/bus';
import { themeTokens } from '@scholia/shared/theme';
import { ShortcutScopeRoot } from '../features/annotate/components/shortcut-scope.js';
import { registerAnnotationI18n } from '../i18n/register-annotation-i18n.js';
import { AnnotationEventsProvider, useAnnotationEvents } from './annotation-events.js';

/** The host's query client and router when it has them (Scholia's shell), else the remote's own. */
function HostContext({ children }: { children: ReactNode }) {
  const hostClient = useContext(QueryClientContext);
  const inRouter = useInRouterContext();
  // The host owns the URL: the remote keeps its own place (filters, page) in memory.
  const routed = inRouter ? children : <MemoryRouter>{children}</MemoryRouter>;
  return hostClient ? routed : <QueryClientProvider client={queryClient}>{routed}</QueryClientProvider>;
}

/** One notice and one `session-expired` event when the server refuses the credentials. */
function SessionExpiredNotice() {
  const { t } = useTranslation('annotation');
  const emit = useAnnotationEvents();
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    const onExpired = () => {
      setExpired(true);
      emit({ type: 'session-expired' });
    };
    bus.on('session:expired', onExpired);
    return () => bus.off('session:expired', onExpired);
  }, [emit]);
  return expired ? <p role="alert" className="mfe-ann-session-expired" data-testid="session-expired">{t('embed.sessionExpired')}</p> : null;
}

/** Reports each new progress the screen reads (after every answer the progress is re-read). */
function ProgressReporter({ datasetId }: { datasetId: string }) {
  const emit = useAnnotationEvents();
  const progress = useQuery(datasetProgressQuery(datasetId)).data;
  useEffect(() => {
    if (progress) emit({ type: 'progress-changed', datasetId, total: progress.total, completed: progress.completed, pending: progress.pending });
  }, [progress, datasetId, emit]);
  return null;
}

/** A chosen palette on the remote's own element: the host page's theme stays the host's. */
const themeStyle = (theme: AnnotationAppProps['theme']): CSSProperties | undefined =>
  theme && Object.fromEntries(Object.entries(themeTokens[theme]).map(([name, value]) => [`--sch-${name}`, value]));

/**
 * Everything the annotation screens need around them, whatever the host: query client and
 * router (unless the host has them), the remote's own i18next, events to the host, the shortcut
 * scope and the theme.
 */
export function AnnotationEmbedRoot({ datasetId, shortcutScope, onEvent, theme, children }: Pick<AnnotationAppProps, 'datasetId' | 'shortcutScope' | 'onEvent' | 'theme'> & { children: ReactNode }) {
  // Scholia's shell shares its query client and styles the remote on purpose; any other host's CSS stops at the root.
  const isolated = !useContext(QueryClientContext);
  return (
    <HostContext>
      <I18nextProvider i18n={registerAnnotationI18n()}>
        <AnnotationEventsProvider onEvent={onEvent}>
          <div className={isolated ? 'mfe-ann-embed mfe-ann-embed--isolated' : 'mfe-ann-embed'} data-theme={theme} style={themeStyle(theme)}>
            <ShortcutScopeRoot scope={shortcutScope}>
              <SessionExpiredNotice />
              {datasetId && <ProgressReporter datasetId={datasetId} />}
              {children}
            </ShortcutScopeRoot>
          </div>
        </AnnotationEventsProvider>
      </I18nextProvider>
    </HostContext>
  );
}
