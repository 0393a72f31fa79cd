import { useEffect, useRef, useState } from 'react';
import type { AnnotationAppProps } from '@scholia/shared';
import { createInstanceConnection, pageConnection, type ApiConnection, type InstanceConnection } from '@scholia/shared/api';

type HostConnection = Pick<AnnotationAppProps, 'apiBaseUrl' | 'token' | 'apiKey'>;

export interface HostConnectionState {
  connection: ApiConnection;
  /** Whether the host named the server or the user: the instance then keeps its own cache. */
  own: boolean;
}

/**
 * The connection of one mounted annotation page. A host that names a server or credentials gets
 * a connection of this instance alone, held in memory: nothing reaches the browser's storage,
 * so another tab, or another instance on the same page, can neither read nor replace it. A host
 * that names neither (Scholia's shell, same origin) shares the page's signed-in session.
 * `onSessionExpired` is told when this instance's credentials are refused.
 */
export function useHostConnection({ apiBaseUrl, token, apiKey }: HostConnection, onSessionExpired: () => void): HostConnectionState {
  const own = apiBaseUrl !== undefined || token !== undefined || apiKey !== undefined;
  const expired = useRef(onSessionExpired);
  expired.current = onSessionExpired;
  const [instance, setInstance] = useState<{ baseUrl: string | undefined; connection: InstanceConnection } | undefined>();
  let current = instance;
  if (own && current?.baseUrl !== apiBaseUrl) {
    // Another server is another connection: nothing read from the last one is shown for this one.
    current = { baseUrl: apiBaseUrl, connection: createInstanceConnection({ apiBaseUrl, token, apiKey, onSessionExpired: () => expired.current() }) };
    setInstance(current);
  }
  // A new token from the host (after `session-expired`) goes with the next request.
  current?.connection.setCredentials({ token, apiKey });
  const connection = current?.connection;
  // Unmounted, the instance's reads are dropped; its credentials went with the component.
  useEffect(() => () => connection?.queryClient.clear(), [connection]);
  return own && connection ? { connection, own: true } : { connection: pageConnection, own: false };
}
