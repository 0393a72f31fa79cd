import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnnotationEvent, AnnotationNavigationTarget } from '@scholia/shared';
import { ScholiaAnnotation } from './scholia-annotation.js';
import type { Session } from './session.js';

const themeOfPage = (): 'light' | 'dark' | undefined => {
  const theme = new URLSearchParams(location.search).get('theme');
  return theme === 'light' || theme === 'dark' ? theme : undefined;
};

/** The partner portal's page: its own header and shortcut, Scholia's annotation, and an event log. */
export function Portal({ session }: { session: Session }) {
  const [events, setEvents] = useState<AnnotationEvent[]>([]);
  const [status, setStatus] = useState('');
  const [unavailable, setUnavailable] = useState(false);
  const annotation = useRef<HTMLDivElement>(null);

  // The portal's own shortcut: it must keep working, and never reach the remote.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's' && !annotation.current?.contains(event.target as Node)) {
        event.preventDefault();
        setStatus('Portal layout saved');
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  // One callback for the page's life: the remote re-subscribes when it changes.
  const onEvent = useCallback((event: AnnotationEvent) => {
    setEvents((list) => [...list, event]);
    if (event.type === 'session-expired') setStatus('Please sign in again');
    if (event.type === 'load-failed') setUnavailable(true);
  }, []);
  const onUnavailable = useCallback(() => setUnavailable(true), []);
  // Scholia's own pages (the dataset's settings) open on Scholia, in a tab of their own.
  const onNavigate = useCallback((target: AnnotationNavigationTarget) => {
    window.open(new URL(target.path, session.serverUrl), '_blank', 'noopener');
  }, [session.serverUrl]);

  return (
    <>
      <header>
        <strong>Partner portal</strong>
        <button type="button" id="host-save">Save portal layout (Ctrl+S)</button>
        <span id="host-status" data-testid="host-status">{status}</span>
      </header>
      <main>
        <section>
          {unavailable && <p data-testid="host-fallback">Labelling is unavailable right now: your work is safe, try again later.</p>}
          <div id="annotation" aria-label="Annotation" ref={annotation}>
            <ScholiaAnnotation serverUrl={session.serverUrl} token={session.token} datasetId={session.datasetId}
              language="en" theme={themeOfPage()} onEvent={onEvent} onUnavailable={onUnavailable} onNavigate={onNavigate} />
          </div>
        </section>
        <aside>
          <h2>Events from the annotation</h2>
          <ol id="events" data-testid="host-events">
            {events.map((event, index) => <li key={index}>{JSON.stringify(event)}</li>)}
          </ol>
        </aside>
      </main>
    </>
  );
}
