import { useEffect, useRef, useState } from 'react';
import type { AnnotationAppProps } from '@scholia/shared';
import { pageConnection, type ApiConnection } from '@scholia/shared/api';
import { createInstanceConnection } from './instance-connection.js';

type HostConnection = Pick<AnnotationAppProps, 'apiBaseUrl' | 'token' | 'apiKey'>;

export interface HostConnectionState {
  connection: ApiConnection;
  /** Whether the host named the server or the user: the instance then keeps its own cache. */
  own: boolean;
  /** Changes with the connection: what was mounted with the last one starts again with this one. */
  key: string;
}

/**
 * The connection of one mounted annotation page. A host that names a server or credentials gets
 * a connection of this instance alone, held in memory: nothing reaches the browser's storage,
 * so another tab, or another instance on the same page, can neither read nor replace it. A new
 * server, token or key is a new connection, whose screen reads everything again with it. A host
 * that names none (Scholia's shell, same origin) shares the page's signed-in session.
 * `onSessionExpired` is told when this instance's credentials are refused.
 */
export function useHostConnection({ apiBaseUrl, token, apiKey }: HostConnection, onSessionExpired: () => void): HostConnectionState {
  const own = apiBaseUrl !== undefined || token !== undefined || apiKey !== undefined;
  const expired = useRef(onSessionExpired);
  expired.current = onSessionExpired;
  const key = JSON.stringify([apiBaseUrl, token, apiKey]);
  const [instance, setInstance] = useState<{ key: string; connection: ApiConnection } | undefined>();
  let current = instance;
  if (own && current?.key !== key) {
    current = { key, connection: createInstanceConnection({ apiBaseUrl, token, apiKey, onSessionExpired: () => expired.current() }) };
    setInstance(current);
  }
  const connection = current?.connection;
  // A connection given up (unmounted, or replaced) leaves nothing it read behind.
  useEffect(() => () => connection?.queryClient.clear(), [connection]);
  return own && connection ? { connection, own: true, key } : { connection: pageConnection, own: false, key: 'page' };
}
