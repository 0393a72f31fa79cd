import React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerHubImportTranslations } from '../i18n/register-translations.js';
import { App, type AppProps } from './app.js';

registerHubImportTranslations();

function Root(props: AppProps) {
  return <RemoteProviders initialPath="/"><App {...props} /></RemoteProviders>;
}

/** single-spa lifecycles for hosts without React; the shell uses `./App` instead. */
export const { bootstrap, mount, unmount } = singleSpaReact<AppProps>({
  React,
  ReactDOMClient,
  rootComponent: Root,
  errorBoundary: (error) => <div role="alert">mfe-hub-import: {String(error)}</div>,
});
