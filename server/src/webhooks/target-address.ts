import net from 'node:net';

/**
 * Classifies a webhook target's IP address. IPv6 forms that carry an IPv4 address (mapped,
 * compatible, translated, NAT64, 6to4) take the class of that IPv4 address: a connection to them
 * can reach it, so `[::ffff:127.0.0.1]` is as much loopback as `127.0.0.1`.
 */

export type AddressClass = 'public' | 'loopback' | 'private';

/** Not reachable on the internet: private, link-local, shared, multicast, reserved, documentation. */
const NON_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // unspecified, local-use NAT64, discard-only, documentation, unique local, link-local, site-local, multicast
  ['::', 128], ['64:ff9b:1::', 48], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The class of an IP address; anything that is not an IP address counts as private. */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const family = net.isIP(bare);
  if (family === 4) return classifyIPv4(bare);
  if (family !== 6) return 'private';
  const bytes = ipv6Bytes(bare);
  const embedded = embeddedIPv4(bytes);
  if (embedded !== undefined) return classifyIPv4(embedded);
  if (bytes.every((byte, i) => byte === (i === 15 ? 1 : 0))) return 'loopback';
  return NON_PUBLIC.check(bare.replace(/%.*$/, ''), 'ipv6') ? 'private' : 'public';
}

function classifyIPv4(address: string): AddressClass {
  if (address.startsWith('127.')) return 'loopback';
  return NON_PUBLIC.check(address, 'ipv4') ? 'private' : 'public';
}

/**
 * The IPv4 address an IPv6 address carries: IPv4-mapped `::ffff:0:0/96`, IPv4-translated
 * `::ffff:0:0:0/96`, IPv4-compatible `::/96` (but `::` and `::1`), NAT64 `64:ff9b::/96`, and
 * 6to4 `2002::/16` (the gateway's address in bits 16–47).
 */
function embeddedIPv4(bytes: number[]): string | undefined {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const dotted = (at: number) => bytes.slice(at, at + 4).join('.');
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return dotted(12);
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return dotted(12);
  if (zeros(0, 12) && !(zeros(12, 15) && bytes[15] <= 1)) return dotted(12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return dotted(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return dotted(2);
  return undefined;
}

/** The 16 bytes of a valid IPv6 address (zone index dropped; a trailing dotted quad allowed). */
function ipv6Bytes(address: string): number[] {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const words = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}
