import React, { useEffect } from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import type { AnnotationEvent, AnnotationLifecycles, AnnotationMountProps } from '@scholia/shared';
import { createEventEmitter } from '../embed/annotation-events.js';
import { ANNOTATION_NAMESPACE, annotationI18n, registerAnnotationI18n } from '../i18n/register-annotation-i18n.js';
import { App } from './app.js';

registerAnnotationI18n();

export type EmbedProps = AnnotationMountProps;

/** single-spa passes the element; the screen needs the rest. */
function Root({ domElement: _domElement, ...appProps }: EmbedProps) {
  return <App {...appProps} />;
}

function LoadFailed({ error, onEvent }: { error: unknown; onEvent?: (event: AnnotationEvent) => void }) {
  const message = annotationI18n.t('embed.failed', { ns: ANNOTATION_NAMESPACE, error: String(error) });
  useEffect(() => createEventEmitter(onEvent)({ type: 'load-failed', message }), [message, onEvent]);
  return <div role="alert">{message}</div>;
}

/** single-spa lifecycles for hosts without React; the shell uses `./App` instead. */
const lifecycles = singleSpaReact<EmbedProps>({
  React,
  ReactDOMClient,
  rootComponent: Root,
  errorBoundary: (error, _info, props) => <LoadFailed error={error} onEvent={props.onEvent} />,
});
// single-spa-react always gives a React root `update`; its type leaves it optional for other uses.
export const { bootstrap, mount, update, unmount } = { ...lifecycles, update: lifecycles.update! } satisfies AnnotationLifecycles;
