import ipaddr from 'ipaddr.js';
import type { AllowedNetwork } from './allowed-networks';

// IANA's global unicast space; ipaddr.js calls the unassigned rest of the IPv6 space 'unicast' too.
const GLOBAL_UNICAST_IPV6 = ipaddr.parseCIDR('2000::/3');

/** Whether a delivery may connect to an address, and if not, which range refused it. */
export type AddressVerdict = { allowed: true } | { allowed: false; range: string };

export interface DeliveryAddressPolicyOptions {
  /** WEBHOOK_ALLOWED_NETWORKS, parsed: reachable even when internal. */
  allowedNetworks: readonly AllowedNetwork[];
  /** Loopback is reachable outside production, so tests and a local `npm start` can deliver to 127.0.0.1. */
  allowLoopback: boolean;
}

/**
 * SSRF protection: which addresses a delivery may connect to. Only global unicast addresses pass;
 * private, loopback, link-local (the cloud metadata address among them), CGNAT, multicast,
 * unspecified, broadcast, reserved, unique-local and every other special range is refused unless
 * it lies inside an allowed network. IPv6 forms that carry an IPv4 address (mapped, translated,
 * NAT64, 6to4) are judged as that IPv4 address, since that is where the packets end up.
 */
export class DeliveryAddressPolicy {
  constructor(private readonly options: DeliveryAddressPolicyOptions) {}

  check(address: string): AddressVerdict {
    const parsed = parseAddress(address);
    if (!parsed) return { allowed: false, range: 'not an IP address' };
    if (this.inAllowedNetwork(parsed)) return { allowed: true };
    if (parsed.kind() === 'ipv4') return this.judgeIPv4(parsed as ipaddr.IPv4, address);
    const ipv6 = parsed as ipaddr.IPv6;
    const embedded = embeddedIPv4(ipv6);
    if (typeof embedded === 'string') return { allowed: false, range: embedded };
    if (embedded) {
      if (this.inAllowedNetwork(embedded)) return { allowed: true };
      return this.judgeIPv4(embedded, address);
    }
    const range = ipv6.range();
    if (range === 'unicast') return ipv6.match(GLOBAL_UNICAST_IPV6) ? { allowed: true } : { allowed: false, range: 'reserved (outside 2000::/3)' };
    if (range === 'loopback' && this.options.allowLoopback) return { allowed: true };
    return { allowed: false, range };
  }

  private judgeIPv4(ipv4: ipaddr.IPv4, address: string): AddressVerdict {
    const range = ipv4.range();
    if (range === 'unicast') return { allowed: true };
    if (range === 'loopback' && this.options.allowLoopback) return { allowed: true };
    return { allowed: false, range: address.includes(':') ? `${range} (IPv4 ${ipv4.toString()} inside IPv6)` : range };
  }

  private inAllowedNetwork(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return this.options.allowedNetworks.some(([network, prefix]) => network.kind() === address.kind() && address.match(network, prefix));
  }
}

/**
 * ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d` (mapped), but the socket would go to the
 * IPv4-compatible address `::a.b.c.d`: a trailing dotted quad of an IPv6 address is turned into
 * its two hex groups first, so the bits judged are the bits connected to.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = address.includes(':')
    ? address.replace(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, (_all, a: string, b: string, c: string, d: string) => {
        const [x, y, z, w] = [a, b, c, d].map(Number) as [number, number, number, number];
        return [x, y, z, w].every((octet) => octet <= 255) ? `${((x << 8) | y).toString(16)}:${((z << 8) | w).toString(16)}` : 'invalid';
      })
    : address;
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

/**
 * The IPv4 address an IPv6 address stands for: mapped (::ffff:a.b.c.d), translated
 * (::ffff:0:a.b.c.d) and NAT64 well-known (64:ff9b::a.b.c.d) in the last 32 bits, 6to4
 * (2002:AABB:CCDD::) in bits 16-47. Teredo, the local-use NAT64 prefix and IPv4-compatible
 * (::a.b.c.d) hide or scramble where they lead: for those the name of the refused range.
 * ipaddr.js names these ranges but extracts only the mapped form, so the bits are read here.
 */
function embeddedIPv4(ipv6: ipaddr.IPv6): ipaddr.IPv4 | string | null {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = ipv6.parts as [number, number, number, number, number, number, number, number];
  const ipv4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const range = ipv6.range();
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return ipv4(p6, p7);
    case 'rfc6052':
      // 64:ff9b::/96 embeds in the last 32 bits; 64:ff9b:1::/48 (local use) may embed anywhere.
      return p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0 ? ipv4(p6, p7) : 'rfc6052 (local-use NAT64)';
    case '6to4':
      return ipv4(p1, p2);
    case 'teredo':
      return range;
    case 'unicast':
      // ::/96 holds only :: and ::1 besides the deprecated IPv4-compatible form.
      return p0 === 0 && p1 === 0 && p2 === 0 && p3 === 0 && p4 === 0 && p5 === 0 ? 'ipv4Compatible' : null;
    default:
      return null;
  }
}
