/** What the portal's back end (serve.mjs) hands the page: the password never reaches the browser. */
export interface Session {
  serverUrl: string;
  token: string;
  datasetId: string;
}

/** The annotator of `slot`: the page's one, or the second one of the two-annotators page. */
export async function readSession(slot: 'first' | 'second' = 'first'): Promise<Session> {
  const response = await fetch(slot === 'first' ? '/session.json' : `/session.json?slot=${slot}`);
  if (!response.ok) throw new Error(`no session: HTTP ${response.status}`);
  return (await response.json()) as Session;
}
