// Which IP addresses an audit stream may connect to. A destination is typed by an organization's
// admin, so without this rule a stream is a way to make the server send requests into its own
// network: the database, the cloud's metadata service (credentials), an admin port on loopback.
// Only globally routable unicast addresses are allowed; everything ipaddr.js names as special is
// refused, and IPv6 forms that carry an IPv4 address inside are judged by that IPv4 address
// (docs/decisions/0054-stream-outbound.md lists the ranges and why).
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Why an address is refused: the range's name, shown in a failure's detail ("127.0.0.1 is loopback"). */
export type RefusedRange = string;

/**
 * Cloud metadata services, named on their own so the detail says what they are: AWS, GCP, Azure
 * and others at 169.254.169.254, AWS's IPv6 endpoint, Alibaba Cloud, Azure's wire server (a public
 * address that only means something inside Azure, where it answers the VM agent).
 */
const METADATA_ADDRESSES = ["169.254.169.254", "fd00:ec2::254", "100.100.100.200", "168.63.129.16"].map((a) =>
  ipaddr.parse(a).toNormalizedString(),
);

/** 64:ff9b::/96, the well-known NAT64 prefix: the last 32 bits are the IPv4 address it reaches. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

/**
 * The range that makes `address` refused, or null when it is a public unicast address. An address
 * that does not parse is refused too: only an address we can judge is connected to.
 */
export function refusedRange(address: string): RefusedRange | null {
  const canonical = canonicalAddress(address);
  if (canonical === null) return "not an IP address";
  const parsed = ipaddr.parse(canonical);
  if (METADATA_ADDRESSES.includes(parsed.toNormalizedString())) return "a cloud metadata address";
  return parsed.kind() === "ipv4" ? refusedIPv4(parsed as ipaddr.IPv4) : refusedIPv6(parsed as ipaddr.IPv6);
}

/**
 * The address as the network reads it, or null when it is none. IPv6 goes through the URL
 * parser's serialization first: ipaddr.js reads "::8.8.8.8" as IPv4-mapped (::ffff:8.8.8.8), while
 * the socket connects to the IPv4-compatible ::808:808. A zone ("fe80::1%eth0", as lookups give
 * link-local addresses) says which interface, not which range, so it is dropped.
 */
function canonicalAddress(address: string): string | null {
  const version = isIP(address.replace(/%.*$/, ""));
  if (version === 4) return address;
  if (version === 6) return URL.parse(`http://[${address.replace(/%.*$/, "")}]/`)?.hostname.slice(1, -1) ?? null;
  return null;
}

function refusedIPv4(address: ipaddr.IPv4): RefusedRange | null {
  // unicast is what ipaddr.js calls every address outside its special ranges: loopback, private,
  // linkLocal, carrierGradeNat, unspecified (0.0.0.0/8), broadcast, multicast, reserved (the
  // documentation and benchmarking nets, 240/4), as112, amt.
  const range = address.range();
  return range === "unicast" ? null : range;
}

function refusedIPv6(address: ipaddr.IPv6): RefusedRange | null {
  const embedded = embeddedIPv4(address);
  if (embedded) {
    const inner = refusedRange(embedded.toString());
    return inner === null ? null : `${inner} (inside an IPv6 address)`;
  }
  const range = address.range();
  // ::/96 is the deprecated IPv4-compatible form (RFC 4291), which ipaddr.js calls unicast.
  if (range === "unicast" && address.parts.slice(0, 6).every((part) => part === 0)) return "ipv4Compatible";
  return range === "unicast" ? null : range;
}

/**
 * The IPv4 address inside an IPv6 one where the network delivers to that IPv4 address: IPv4-mapped
 * (::ffff:a.b.c.d), the SIIT form (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4
 * (2002:aabb:ccdd::). Other special IPv6 ranges (Teredo, NAT64's local-use 64:ff9b:1::/48) are
 * refused as a whole by their range.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const parts = address.parts;
  const fromParts = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (range === "ipv4Mapped" || range === "rfc6145") return fromParts(parts[6]!, parts[7]!);
  if (address.match(NAT64_WELL_KNOWN)) return fromParts(parts[6]!, parts[7]!);
  if (range === "6to4") return fromParts(parts[1]!, parts[2]!);
  return null;
}

/**
 * A URL's host as an IP address when it is one ("[::1]" → "::1"), else null (a name to resolve).
 * The same test Node's net.connect makes to decide it needs no lookup (net.isIP), so every host
 * Node would connect to without calling our lookup is checked here instead.
 */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}
