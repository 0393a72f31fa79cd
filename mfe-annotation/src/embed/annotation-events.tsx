import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { bus } from '@scholia/shared/bus';
import type { AnnotationEvent } from '@scholia/shared';

export type EmitAnnotationEvent = (event: AnnotationEvent) => void;

/** What an explicit answer (focus or bulk mode) reports to the host. */
export function responseEvent(datasetId: string, recordId: string, status: 'submitted' | 'draft' | 'discarded', keptOffline: boolean): AnnotationEvent {
  const common = { datasetId, recordId, keptOffline };
  if (status === 'submitted') return { type: 'response-submitted', status, ...common };
  if (status === 'draft') return { type: 'response-drafted', status, ...common };
  return { type: 'response-discarded', status, ...common };
}

/**
 * Reports an event to the host's `onEvent` and on the page's bus as `annotation:<type>`. A
 * failing host callback is logged, never allowed to break annotating.
 */
export function createEventEmitter(onEvent?: (event: AnnotationEvent) => void): EmitAnnotationEvent {
  return (event) => {
    try {
      onEvent?.(event);
    } catch (error) {
      console.error('mfe_annotation: onEvent threw', error);
    }
    (bus.emit as (type: string, payload: AnnotationEvent) => void)(`annotation:${event.type}`, event);
  };
}

const AnnotationEventsContext = createContext<EmitAnnotationEvent>(createEventEmitter());

export function AnnotationEventsProvider({ onEvent, children }: { onEvent?: (event: AnnotationEvent) => void; children: ReactNode }) {
  const emit = useMemo(() => createEventEmitter(onEvent), [onEvent]);
  return <AnnotationEventsContext.Provider value={emit}>{children}</AnnotationEventsContext.Provider>;
}

export const useAnnotationEvents = (): EmitAnnotationEvent => useContext(AnnotationEventsContext);
