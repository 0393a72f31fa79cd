/** What the portal's back end (serve.mjs) hands the page: the password never reaches the browser. */
export interface Session {
  serverUrl: string;
  token: string;
  datasetId: string;
}

export async function readSession(): Promise<Session> {
  const response = await fetch('/session.json');
  if (!response.ok) throw new Error(`no session: HTTP ${response.status}`);
  return (await response.json()) as Session;
}
