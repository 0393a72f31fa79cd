import { useCallback, useState } from 'react';
import type { AnnotationEvent } from '@scholia/shared';
import { ScholiaAnnotation } from './scholia-annotation.js';
import type { Session } from './session.js';

/** One annotator's annotation page and the events it sent. */
function AnnotatorSlot({ slot, session, remoteServerUrl }: { slot: 'first' | 'second'; session: Session; remoteServerUrl: string }) {
  const [events, setEvents] = useState<AnnotationEvent[]>([]);
  const onEvent = useCallback((event: AnnotationEvent) => setEvents((list) => [...list, event]), []);
  const onUnavailable = useCallback(() => undefined, []);
  return (
    <section data-testid={`slot-${slot}`}>
      <h2>{slot === 'first' ? 'First annotator' : 'Second annotator'}</h2>
      <div className="annotation" aria-label={`Annotation of the ${slot} annotator`}>
        {/* The remote's code comes from one server; each instance talks to its annotator's own. */}
        <ScholiaAnnotation serverUrl={remoteServerUrl} apiBaseUrl={new URL('/api', session.serverUrl).href} token={session.token}
          datasetId={session.datasetId} language="en" onEvent={onEvent} onUnavailable={onUnavailable} />
      </div>
      <ol className="events" data-testid="host-events">
        {events.map((event, index) => <li key={index}>{JSON.stringify(event)}</li>)}
      </ol>
    </section>
  );
}

/** Two annotators side by side on one page, each with their own session (and server). */
export function TwoAnnotators({ first, second }: { first: Session; second: Session }) {
  return (
    <>
      <header><strong>Partner portal</strong>: a reviewer and a trainee side by side</header>
      <main className="two-annotators">
        <AnnotatorSlot slot="first" session={first} remoteServerUrl={first.serverUrl} />
        <AnnotatorSlot slot="second" session={second} remoteServerUrl={first.serverUrl} />
      </main>
    </>
  );
}
