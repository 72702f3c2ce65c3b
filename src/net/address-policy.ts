// SSRF protection: which addresses a fetch may reach. One fixed set, no switch: only global unicast.
// Loopback, link-local (cloud metadata included), private, unique-local, CGNAT, multicast,
// benchmarking, documentation, reserved and unspecified addresses are refused, and IPv4 embedded
// in IPv6 (mapped, compatible, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4, Teredo, ISATAP) is
// decoded and judged as the IPv4 address it carries.
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

const IPV4_NAMES: [string, string][] = [
  ['0.0.0.0/8', 'unspecified (0.0.0.0/8)'],
  ['10.0.0.0/8', 'private (10.0.0.0/8, RFC 1918)'],
  ['100.64.0.0/10', 'carrier-grade NAT (100.64.0.0/10)'],
  ['127.0.0.0/8', 'loopback (127.0.0.0/8)'],
  ['169.254.0.0/16', 'link-local (169.254.0.0/16, cloud metadata)'],
  ['172.16.0.0/12', 'private (172.16.0.0/12, RFC 1918)'],
  ['192.0.0.0/24', 'IETF protocol assignments (192.0.0.0/24)'],
  ['192.0.2.0/24', 'documentation (192.0.2.0/24)'],
  ['192.88.99.0/24', 'reserved 6to4 relay (192.88.99.0/24)'],
  ['192.168.0.0/16', 'private (192.168.0.0/16, RFC 1918)'],
  ['198.18.0.0/15', 'benchmarking (198.18.0.0/15)'],
  ['198.51.100.0/24', 'documentation (198.51.100.0/24)'],
  ['203.0.113.0/24', 'documentation (203.0.113.0/24)'],
  ['224.0.0.0/4', 'multicast (224.0.0.0/4)'],
  ['240.0.0.0/4', 'reserved (240.0.0.0/4)'],
];

const IPV6_NAMES: Record<string, string> = {
  unspecified: 'unspecified (::)',
  loopback: 'loopback (::1)',
  linkLocal: 'link-local (fe80::/10)',
  uniqueLocal: 'unique-local (fc00::/7)',
  multicast: 'multicast (ff00::/8)',
  reserved: 'reserved or documentation',
  benchmarking: 'benchmarking (2001:2::/48)',
  discard: 'discard-only (100::/64)',
};

/** IPv6 ranges whose addresses stand for an IPv4 address: judged by the IPv4 address they carry. */
const EMBEDDING_RANGES = ['ipv4Mapped', 'rfc6052', '6to4', 'teredo'];

function ipv4Name(addr: IPv4): string | undefined {
  if (addr.range() === 'unicast') return undefined;
  for (const [cidr, name] of IPV4_NAMES) {
    const [net, bits] = ipaddr.parseCIDR(cidr) as [IPv4, number];
    if (addr.match(net, bits)) return name;
  }
  return addr.range();
}

function v4From(bytes: number[], offset: number): IPv4 {
  return new ipaddr.IPv4(bytes.slice(offset, offset + 4));
}

/** IPv4 addresses carried inside an IPv6 address, by the conventions that embed them. */
export function embeddedIPv4(addr: IPv6): { via: string; v4: IPv4 }[] {
  const b = addr.toByteArray();
  const range = addr.range();
  const out: { via: string; v4: IPv4 }[] = [];
  if (range === 'ipv4Mapped' || b.slice(0, 12).every((x) => x === 0)) out.push({ via: 'IPv4-mapped/compatible', v4: v4From(b, 12) });
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    out.push({ via: 'NAT64', v4: v4From(b, 12) });
    // 64:ff9b:1::/48 (RFC 8215) may use the /48 layout of RFC 6052 (octets 6-7 and 9-10) as well
    // as the /96 one: both readings are checked, and either being blocked blocks the address.
    if (b[4] === 0x00 && b[5] === 0x01) out.push({ via: 'NAT64 local-use', v4: new ipaddr.IPv4([b[6]!, b[7]!, b[9]!, b[10]!]) });
  }
  if (b[0] === 0x20 && b[1] === 0x02) out.push({ via: '6to4', v4: v4From(b, 2) });
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) {
    out.push({ via: 'Teredo server', v4: v4From(b, 4) });
    out.push({ via: 'Teredo client', v4: new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff)) });
  }
  // ISATAP interface identifiers: ::0:5efe:a.b.c.d and ::200:5efe:a.b.c.d.
  if ((b[8] === 0x00 || b[8] === 0x02) && b[9] === 0x00 && b[10] === 0x5e && b[11] === 0xfe) out.push({ via: 'ISATAP', v4: v4From(b, 12) });
  return out;
}

/** Why an address may not be fetched from, or undefined when it may. */
export function blockedReason(ip: string): string | undefined {
  if (!ipaddr.isValid(ip)) return `'${ip}' is not an IP address`;
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === 'ipv4') {
    const name = ipv4Name(parsed as IPv4);
    return name ? `${ip} is in a ${name} range` : undefined;
  }
  const v6 = parsed as IPv6;
  const range = v6.range();
  // An address's own special range speaks first (::1 is loopback, not an embedded 0.0.0.1).
  if (range !== 'unicast' && !EMBEDDING_RANGES.includes(range)) return `${ip} is in a ${IPV6_NAMES[range] ?? range} range`;
  const embedded = embeddedIPv4(v6);
  for (const e of embedded) {
    const name = ipv4Name(e.v4);
    if (name) return `${ip} carries ${e.v4.toString()} (${e.via}), which is in a ${name} range`;
  }
  return undefined;
}

/** Host names that mean this machine, whatever DNS says. */
export function blockedHostname(hostname: string): string | undefined {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h === 'localhost.localdomain' || h === 'ip6-localhost' || h === 'ip6-loopback') {
    return `'${hostname}' names this machine`;
  }
  return undefined;
}
