import React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { RemoteProviders } from '@scholia/shared/ui';
import { App, type AppProps } from './app.js';

function Root(props: AppProps) {
  return <RemoteProviders initialPath="/sign-in"><App {...props} /></RemoteProviders>;
}

/** single-spa lifecycles for hosts without React; the shell uses `./App` instead. */
export const { bootstrap, mount, unmount } = singleSpaReact<AppProps>({
  React,
  ReactDOMClient,
  rootComponent: Root,
  errorBoundary: (error) => <div role="alert">mfe-auth: {String(error)}</div>,
});
