import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

const FORBIDDEN_IPV4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

/** An IPv4 address as the two 16-bit groups IPv6 writes it in: `127.0.0.1` → `7f00:1`. */
function ipv4Groups(address: string): string {
  const [a, b, c, d] = address.split(".").map(Number) as [number, number, number, number];
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * IPv6 forms that carry an IPv4 address and reach it: NAT64 (`64:ff9b::/96`), 6to4
 * (`2002::/16`, the address in the next 32 bits) and the deprecated IPv4-compatible form
 * (`::/96`). Each forbidden IPv4 network is forbidden in each of them (`[64:ff9b::7f00:1]` is
 * 127.0.0.1). Node's BlockList already reads IPv4-mapped addresses (`::ffff:0:0/96`) as IPv4.
 */
const FORBIDDEN_IPV4_IN_IPV6 = FORBIDDEN_IPV4.flatMap(([network, prefix]) => [
  [`64:ff9b::${ipv4Groups(network)}`, 96 + prefix],
  [`2002:${ipv4Groups(network)}::`, 16 + prefix],
  [`::${ipv4Groups(network)}`, 96 + prefix],
] as const);

/**
 * Where webhooks may not go (docs/security.md#webhook-destinations-the-private-network-rule) unless WEBHOOK_ALLOW_PRIVATE_NETWORKS: loopback,
 * private, link-local, shared (CGNAT), unspecified, multicast and reserved ranges, IPv4 and
 * IPv6, and those IPv4 ranges in every IPv6 form that carries an IPv4 address.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of FORBIDDEN_IPV4) FORBIDDEN.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  // NAT64 for local use (RFC 8215): whatever it translates to is a private network's.
  ["64:ff9b:1::", 48],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ...FORBIDDEN_IPV4_IN_IPV6,
] as const) {
  FORBIDDEN.addSubnet(network, prefix, "ipv6");
}

/** The error code of a refused destination, so the sender can tell it from network errors. */
export const FORBIDDEN_DESTINATION = "ERR_WEBHOOK_FORBIDDEN_DESTINATION";

/** An IP address in a range webhooks may not go to. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && FORBIDDEN.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The IP address a URL names literally (IPv6 without its brackets), or null for a host name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return isIP(host) === 0 ? null : host;
}

function forbidden(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${hostname} resolves only to private or loopback addresses; webhooks may not go there`);
  error.code = FORBIDDEN_DESTINATION;
  return error;
}

/**
 * A DNS lookup for `http.request` that drops forbidden addresses, so the connection is made to
 * an address that was checked: a name cannot be pointed at loopback between a check and the
 * connect. (Node does not call `lookup` for a literal IP: check those with `isForbiddenAddress`.)
 */
export const publicAddressLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, resolved: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const allowed = resolved.filter((entry) => !isForbiddenAddress(entry.address));
    if (allowed.length === 0) return callback(forbidden(hostname), "", 0);
    if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};
