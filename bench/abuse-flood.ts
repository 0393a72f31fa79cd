/**
 * The flooding annotators of bench/reliability.ts's abuse run, in a process of their own so the
 * well-behaved annotator's latency is measured apart from the flood clients' own work. Input (argv
 * JSON): the server's URL, the dataset, each flooding annotator's credentials, seconds and requests
 * kept under way per annotator. Sends back each status's count and each kind's answered latencies.
 */
import { TestApi, type Credentials } from '../server/test/api-client.js';
import { abusiveRequests, sendAbusive } from '../server/test/reliability/search-abuse.js';

interface FloodInput {
  url: string;
  datasetId: string;
  abusers: Credentials[];
  seconds: number;
  parallel: number;
}

const input = JSON.parse(process.argv[2]) as FloodInput;
const requests = abusiveRequests();
const statuses: Record<number, number> = {};
const answeredMs: Record<string, number[]> = {};
const deadline = Date.now() + input.seconds * 1000;

const flood = async (abuser: TestApi, offset: number, lane: number) => {
  for (let k = lane; Date.now() < deadline; k += input.parallel) {
    const request = requests[(k + offset) % requests.length];
    const answer = await sendAbusive(abuser, input.datasetId, request, 60_000);
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    if (answer.status < 300) (answeredMs[request.name] ??= []).push(answer.ms);
  }
};

await Promise.all(
  input.abusers.flatMap((credentials, a) => Array.from({ length: input.parallel }, (_, lane) => flood(new TestApi(input.url, credentials), a, lane))),
);
process.send!({ statuses, answeredMs }, () => process.exit(0));
