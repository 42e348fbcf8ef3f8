// IP addresses as the guard keys them: one key per client, whatever the spelling.
import ipaddr from 'ipaddr.js';

/** One address read strictly: IPv4 in four decimal parts, or IPv6 (an IPv4-mapped one is its IPv4 address). */
function parse(value: unknown): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (typeof value !== 'string' || value.length > 64) return undefined;
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return ipaddr.IPv4.parse(value);
  if (!ipaddr.IPv6.isValid(value)) return undefined;
  const address = ipaddr.IPv6.parse(value);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  address.zoneId = undefined;
  return address;
}

/** The address in canonical form (dotted decimal, or RFC 5952), or undefined when it is not one address. */
export function canonicalAddress(value: unknown): string | undefined {
  return parse(value)?.toString();
}

/**
 * The key of a client's address: an IPv4 address in dotted decimal (an IPv4-mapped IPv6 address is
 * its IPv4 address), an IPv6 address as its network of `v6Prefix` bits in RFC 5952 form
 * ("2001:db8:1:2::/64"). Undefined for anything that is not one address: a list
 * ("198.51.100.1, 203.0.113.7"), a port, brackets, IPv4 in other than four decimal parts.
 */
export function canonicalIp(value: unknown, v6Prefix: number): string | undefined {
  const address = parse(value);
  if (!address || address.kind() === 'ipv4') return address?.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${v6Prefix}`).toString()}/${v6Prefix}`;
}
