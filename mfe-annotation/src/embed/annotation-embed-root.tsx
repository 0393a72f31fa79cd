import { QueryClientContext, QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { useContext, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { MemoryRouter, useInRouterContext } from 'react-router-dom';
import type { AnnotationAppProps } from '@scholia/shared';
import { datasetProgressQuery, pageConnection } from '@scholia/shared/api';
import { ApiConnectionProvider } from './instance-connection.js';
import { bus } from '@scholia/shared/bus';
import { isLanguage } from '@scholia/shared/i18n';
import { themeTokens } from '@scholia/shared/theme';
import { ShortcutScopeRoot } from '../features/annotate/components/shortcut-scope.js';
import { registerAnnotationI18n } from '../i18n/register-annotation-i18n.js';
import { AnnotationEventsProvider, createEventEmitter, useAnnotationEvents } from './annotation-events.js';
import { ScholiaNavigationProvider } from './scholia-link.js';
import { useHostConnection } from './use-host-connection.js';

/** The host's router when it has one (Scholia's shell), else the remote's own. */
function HostRouter({ children }: { children: ReactNode }) {
  // The host owns the URL: the remote keeps its own place (filters, page) in memory.
  return useInRouterContext() ? children : <MemoryRouter>{children}</MemoryRouter>;
}

/**
 * One notice and one `session-expired` event when the server refuses the credentials: this
 * instance's own (`expired`), or, sharing the page's session, the page's (on the bus).
 */
function SessionExpiredNotice({ expired, ownConnection }: { expired: boolean; ownConnection: boolean }) {
  const { t } = useTranslation('annotation');
  const emit = useAnnotationEvents();
  const [pageExpired, setPageExpired] = useState(false);
  useEffect(() => {
    if (ownConnection) return undefined;
    const onExpired = () => {
      setPageExpired(true);
      emit({ type: 'session-expired' });
    };
    bus.on('session:expired', onExpired);
    return () => bus.off('session:expired', onExpired);
  }, [emit, ownConnection]);
  return expired || pageExpired ? <p role="alert" className="mfe-ann-session-expired" data-testid="session-expired">{t('embed.sessionExpired')}</p> : null;
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

/** The remote's i18next in the language this instance was given, else the one that follows Scholia's shell. */
function useInstanceI18n(language: AnnotationAppProps['language']): i18n {
  const shared = registerAnnotationI18n();
  // A clone shares the loaded strings but keeps its own language: two instances on one page may speak two.
  return useMemo(() => (isLanguage(language) ? shared.cloneInstance({ lng: language }) : shared), [shared, language]);
}

export type AnnotationEmbedRootProps = Omit<AnnotationAppProps, 'datasetId'> & { datasetId?: string; children: ReactNode };

/**
 * Everything the annotation screens need around them, whatever the host: this instance's
 * connection and query cache (or the page's, in Scholia's shell), a router unless the host has
 * one, the remote's own i18next, events to the host, the shortcut scope and the theme.
 */
export function AnnotationEmbedRoot({ datasetId, shortcutScope, onEvent, onNavigate, theme, language, apiBaseUrl, token, apiKey, children }: AnnotationEmbedRootProps) {
  const hostClient = useContext(QueryClientContext);
  // Scholia's router follows its own links; another host's only through `onNavigate`.
  const navigation = useInRouterContext() ? 'router' : onNavigate;
  // Scholia's shell shares its query client and styles the remote on purpose; any other host's CSS stops at the root.
  const isolated = !hostClient;
  const [expired, setExpired] = useState(false);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  const { connection, own, key } = useHostConnection({ apiBaseUrl, token, apiKey }, () => {
    setExpired(true);
    createEventEmitter(onEventRef.current)({ type: 'session-expired' });
  });
  // A new token or key from the host is a new session: its refusal is news again.
  useEffect(() => setExpired(false), [token, apiKey]);
  const i18n = useInstanceI18n(language);
  const client = own ? connection.queryClient : hostClient ?? pageConnection.queryClient;
  // Queries stay with the cache they started in: a new connection remounts the screen on its own.
  return (
    <QueryClientProvider key={key} client={client}>
      <ApiConnectionProvider value={connection}>
        <HostRouter>
          <I18nextProvider i18n={i18n}>
            <AnnotationEventsProvider onEvent={onEvent}>
              <ScholiaNavigationProvider value={navigation}>
                <div className={isolated ? 'mfe-ann-embed mfe-ann-embed--isolated' : 'mfe-ann-embed'} data-theme={theme} style={themeStyle(theme)}>
                  <ShortcutScopeRoot scope={shortcutScope}>
                    <SessionExpiredNotice expired={expired} ownConnection={own} />
                    {datasetId && <ProgressReporter datasetId={datasetId} />}
                    {children}
                  </ShortcutScopeRoot>
                </div>
              </ScholiaNavigationProvider>
            </AnnotationEventsProvider>
          </I18nextProvider>
        </HostRouter>
      </ApiConnectionProvider>
    </QueryClientProvider>
  );
}
