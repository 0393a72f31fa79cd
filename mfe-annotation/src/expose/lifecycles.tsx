import React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { configureApi, writeToken } from '@scholia/shared/api';
import { i18next } from '@scholia/shared/i18n';
import { RemoteProviders } from '@scholia/shared/ui';
import { ANNOTATION_NAMESPACE, registerAnnotationI18n } from '../i18n/register-annotation-i18n.js';
import { App, type AppProps } from './app.js';

registerAnnotationI18n();

export interface EmbedProps extends AppProps {
  /** API root the remote talks to, e.g. `https://labels.example.org/api`. */
  apiBaseUrl?: string;
  /** Bearer token of the annotator; kept where the shared client reads it. */
  token?: string;
}

function Root({ apiBaseUrl, token, datasetId }: EmbedProps) {
  if (apiBaseUrl) configureApi({ baseUrl: apiBaseUrl });
  if (token) writeToken(token);
  return <RemoteProviders initialPath="/"><App datasetId={datasetId} /></RemoteProviders>;
}

/** single-spa lifecycles for hosts without React; the shell uses `./App` instead. */
export const { bootstrap, mount, unmount } = singleSpaReact<EmbedProps>({
  React,
  ReactDOMClient,
  rootComponent: Root,
  errorBoundary: (error) => <div role="alert">{i18next.t('embed.failed', { ns: ANNOTATION_NAMESPACE, error: String(error) })}</div>,
});
