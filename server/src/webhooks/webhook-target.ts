import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Sends one webhook request. Unless private targets are allowed (SCHOLIA_WEBHOOKS_ALLOW_PRIVATE),
 * every address the host resolves to must be public, and the connection goes to an address that
 * was checked (no second lookup a rebinding DNS server could answer differently). Redirects are
 * not followed: a 3xx is a failed attempt like any other non-2xx answer.
 */

const TIMEOUT_MS = 20_000;

/** Addresses a webhook may not reach: loopback, private, link-local, shared, multicast, reserved. */
const NON_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b:1::', 48], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

export class WebhookTargetRefused extends Error {}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  return !NON_PUBLIC.check(address, 'ipv6');
}

export interface WebhookAnswer {
  status: number;
}

export interface PostOptions {
  allowPrivate: boolean;
  /** Aborts the request (server shutdown). */
  signal?: AbortSignal;
}

export async function postWebhook(url: string, headers: Record<string, string>, body: string, { allowPrivate, signal }: PostOptions): Promise<WebhookAnswer> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new WebhookTargetRefused(`unsupported scheme ${target.protocol}`);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const address = await checkedAddress(host, allowPrivate);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'scholia-webhooks' },
        timeout: TIMEOUT_MS,
        signal,
        // Connect to the address checked above; TLS still verifies the certificate for the host name.
        lookup: (_hostname, options, callback) => {
          if ((options as dns.LookupOptions).all) callback(null, [{ address: address.address, family: address.family }]);
          else callback(null, address.address, address.family);
        },
      },
      // Only the status matters: the answer's body is not read, so no target can hold the deliverer with it.
      (response) => {
        resolve({ status: response.statusCode ?? 0 });
        response.destroy();
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}

async function checkedAddress(host: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.promises.lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new WebhookTargetRefused(`${host} does not resolve`);
  if (!allowPrivate) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) throw new WebhookTargetRefused(`${host} resolves to the non-public address ${refused.address}`);
  }
  return addresses[0];
}
