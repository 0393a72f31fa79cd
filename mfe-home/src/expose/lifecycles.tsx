import React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { RemoteProviders } from '@scholia/shared/ui';
import { App } from './app.js';

function Root() {
  return <RemoteProviders initialPath="/"><App /></RemoteProviders>;
}

/** single-spa lifecycles for hosts without React; the shell uses `./App` instead. */
export const { bootstrap, mount, unmount } = singleSpaReact({
  React,
  ReactDOMClient,
  rootComponent: Root,
  errorBoundary: (error) => <div role="alert">mfe-home: {String(error)}</div>,
});
