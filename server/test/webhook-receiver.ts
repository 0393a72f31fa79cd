import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A delivery as received, with whether its Standard Webhooks signature checks out. */
export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  event: { type: string; version: number; timestamp: string; data: any };
}

/**
 * A local HTTP endpoint for webhook deliveries. `failNext(n)` makes the next n requests answer 500;
 * `hold()` makes it a slow target that keeps every request open until `release()`.
 * The signature is checked here from the Standard Webhooks text, independently of the server's code.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Requests open now, and the most ever open at once. */
  open = 0;
  mostOpen = 0;
  private failures = 0;
  private holding = false;
  private held: Array<() => void> = [];
  private server = http.createServer((request, response) => {
    this.open += 1;
    this.mostOpen = Math.max(this.mostOpen, this.open);
    response.on('close', () => (this.open -= 1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (this.holding) {
        this.held.push(() => this.answer(request, response, chunks));
        return;
      }
      this.answer(request, response, chunks);
    });
  });

  private answer(request: http.IncomingMessage, response: http.ServerResponse, chunks: Buffer[]): void {
    if (this.failures > 0) {
      this.failures -= 1;
      response.writeHead(500).end();
      return;
    }
    const body = Buffer.concat(chunks).toString('utf8');
    this.received.push({ headers: request.headers, body, event: JSON.parse(body) });
    response.writeHead(200).end('ok');
  }

  /** Keeps requests open, unanswered, from now until `release()`. */
  hold(): void {
    this.holding = true;
  }

  /** Answers the requests held, and every later one at once. */
  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  async listen(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  failNext(count: number): void {
    this.failures = count;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Waits until a delivery matching `predicate` has arrived. */
  async waitFor(predicate: (received: ReceivedWebhook) => boolean, timeoutMs = 10_000): Promise<ReceivedWebhook> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching delivery; received: ${this.received.map((r) => r.event.type).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Whether the delivery carries a valid `v1` signature by `secret` (base64 key, optional `whsec_` prefix). */
export function hasValidSignature(received: ReceivedWebhook, secret: string): boolean {
  const id = received.headers['webhook-id'];
  const timestamp = received.headers['webhook-timestamp'];
  const signatures = String(received.headers['webhook-signature'] ?? '').split(' ');
  if (typeof id !== 'string' || typeof timestamp !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`).digest('base64');
  return signatures.includes(`v1,${expected}`);
}
