import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Where a live tenant's webhooks may not go (decisions §6): loopback, private, link-local,
 * shared (CGNAT), unspecified, multicast and reserved ranges, IPv4 and IPv6. IPv4-mapped IPv6
 * addresses are checked as the IPv4 address they carry.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
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
] as const) {
  FORBIDDEN.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, "ipv6");
}

/** The error code of a refused destination, so the sender can tell it from network errors. */
export const FORBIDDEN_DESTINATION = "ERR_WEBHOOK_FORBIDDEN_DESTINATION";

/** An IP address in a range live tenants may not deliver to. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && FORBIDDEN.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The IP address a URL names literally (IPv6 without its brackets), or null for a host name. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return isIP(host) === 0 ? null : host;
}

function forbidden(hostname: string, addresses: readonly string[]): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `${hostname} resolves only to private or loopback addresses (${addresses.join(", ")}); live tenants may not deliver there`,
  );
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
    if (allowed.length === 0) return callback(forbidden(hostname, resolved.map((entry) => entry.address)), "", 0);
    if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
};

/** A literal destination refused before connecting, in the same words as a refused lookup. */
export function forbiddenLiteral(address: string): NodeJS.ErrnoException {
  return forbidden(address, [address]);
}
