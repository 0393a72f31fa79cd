import React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { RemoteProviders } from '@scholia/shared/ui';
import { registerSettingsI18n } from '../i18n/register-settings-i18n.js';
import { App, type AppProps } from './app.js';

registerSettingsI18n();

function Root(props: AppProps) {
  return <RemoteProviders initialPath="/"><App {...props} /></RemoteProviders>;
}

/** single-spa lifecycles for hosts without React; the shell uses `./App` instead. */
export const { bootstrap, mount, unmount } = singleSpaReact<AppProps>({
  React,
  ReactDOMClient,
  rootComponent: Root,
  errorBoundary: (error) => <div role="alert">mfe-settings: {String(error)}</div>,
});
