import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { classifyAddress, type AddressClass } from './target-address.js';

/**
 * Sends one webhook request. Every address the host resolves to must be public, or loopback/private
 * as the server's setting allows (AppConfig.webhookPrivateTargets), and the connection goes to an
 * address that was checked (no second lookup a rebinding DNS server could answer differently).
 * Redirects are not followed: a 3xx is a failed attempt like any other non-2xx answer.
 */

const TIMEOUT_MS = 20_000;
/** A webhook's host name is looked up when it is saved; a slow resolver does not hold the request longer. */
const SAVE_LOOKUP_MS = 3_000;

/** Non-public targets a server may send to: none, loopback only, or loopback and private. */
export type PrivateTargets = 'none' | 'loopback' | 'all';

export class WebhookTargetRefused extends Error {}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

function isAllowed(kind: AddressClass, allowed: PrivateTargets): boolean {
  return kind === 'public' || allowed === 'all' || (kind === 'loopback' && allowed === 'loopback');
}

/**
 * Why a webhook URL may not be saved, or undefined when it may: an IP address, `localhost` or a
 * host name resolving to an address the setting does not allow. A name that does not resolve now
 * is accepted; each delivery checks again.
 */
export async function refusedWebhookTarget(url: string, allowed: PrivateTargets): Promise<string | undefined> {
  if (!URL.canParse(url)) return 'The webhook URL is not a valid URL.';
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = net.isIP(host) ? [host] : await lookupForSave(host);
  const refused = addresses.find((address) => !isAllowed(classifyAddress(address), allowed));
  if (refused === undefined) return undefined;
  const kind = classifyAddress(refused) === 'loopback' ? 'loopback' : 'private';
  const target = refused === host ? `the ${kind} address ${refused}` : `${host}, which resolves to the ${kind} address ${refused}`;
  const policy =
    allowed === 'loopback'
      ? 'This server sends webhooks to loopback addresses but not to private ones'
      : 'This server does not send webhooks to loopback or private addresses';
  return `The webhook URL points to ${target}. ${policy}; its administrator can allow them with SCHOLIA_WEBHOOKS_ALLOW_PRIVATE=true.`;
}

async function lookupForSave(host: string): Promise<string[]> {
  // `localhost` names are loopback by definition (RFC 6761), whatever the resolver says.
  if (host === 'localhost' || host.endsWith('.localhost')) return ['127.0.0.1'];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => (timer = setTimeout(() => resolve([]), SAVE_LOOKUP_MS)));
  const lookup = dns.promises
    .lookup(host, { all: true, verbatim: true })
    .then((entries) => entries.map((entry) => entry.address))
    .catch(() => []);
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface WebhookAnswer {
  status: number;
}

export interface PostOptions {
  allowed: PrivateTargets;
  /** Aborts the request (server shutdown). */
  signal?: AbortSignal;
}

export async function postWebhook(url: string, headers: Record<string, string>, body: string, { allowed, signal }: PostOptions): Promise<WebhookAnswer> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new WebhookTargetRefused(`unsupported scheme ${target.protocol}`);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const address = await checkedAddress(host, allowed);
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

async function checkedAddress(host: string, allowed: PrivateTargets): Promise<{ address: string; family: number }> {
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.promises.lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new WebhookTargetRefused(`${host} does not resolve`);
  const refused = addresses.find((entry) => !isAllowed(classifyAddress(entry.address), allowed));
  if (refused) throw new WebhookTargetRefused(`${host} resolves to the non-public address ${refused.address}`);
  return addresses[0];
}
