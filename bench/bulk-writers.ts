/**
 * The bulk writers of bench/bulk-write-budget.ts, in a process of their own so that building and
 * sending their bodies never delays the other user's requests the bench times. Input (argv JSON):
 * the API base, the dataset, each writer's API key, records per body, characters per record and
 * bodies per writer. Sends back each status's count, the bytes sent, and the first refusal's
 * `detail` and `Retry-After` per status.
 */
interface WritersInput {
  base: string;
  datasetId: string;
  apiKeys: string[];
  records: number;
  recordChars: number;
  rounds: number;
}

const input = JSON.parse(process.argv[2]) as WritersInput;
const statuses: Record<number, number> = {};
const refusals: Record<number, { detail: string; retryAfter: string | null }> = {};
let bytesSent = 0;

// One filler text for every record: building 60 MB bodies must cost this process little.
const filler = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(input.recordChars / 27)).slice(0, input.recordChars);

function body(writer: number, round: number): string {
  const items = Array.from({ length: input.records }, (_, i) => `{"external_id":"w${writer}-r${round}-${i}","fields":{"text":"${filler}"}}`);
  return `{"items":[${items.join(',')}]}`;
}

async function write(writer: number, apiKey: string) {
  for (let round = 0; round < input.rounds; round += 1) {
    const payload = body(writer, round);
    bytesSent += payload.length;
    try {
      const res = await fetch(`${input.base}/datasets/${input.datasetId}/records/bulk`, {
        method: 'PUT',
        headers: { 'X-Argilla-Api-Key': apiKey, 'Content-Type': 'application/json' },
        body: payload,
      });
      const text = await res.text();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status >= 300 && !refusals[res.status]) {
        refusals[res.status] = { detail: String((JSON.parse(text) as { detail?: unknown }).detail).slice(0, 300), retryAfter: res.headers.get('retry-after') };
      }
    } catch {
      // the server closed the connection before answering
      statuses[0] = (statuses[0] ?? 0) + 1;
    }
  }
}

await Promise.all(input.apiKeys.map((apiKey, writer) => write(writer, apiKey)));
process.send!({ statuses, refusals, bytesSent }, () => process.exit(0));
