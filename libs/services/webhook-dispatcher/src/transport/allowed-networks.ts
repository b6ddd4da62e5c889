import ipaddr from 'ipaddr.js';
import { ConfigValidationError } from '@lp/platform/config';

/** One CIDR range of WEBHOOK_ALLOWED_NETWORKS. */
export type AllowedNetwork = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Parses WEBHOOK_ALLOWED_NETWORKS (`10.20.0.0/16,fd00::/8`). A bad entry fails the boot with a
 * `ConfigValidationError` naming it: an operator who meant to open a range must not find out from
 * refused deliveries. A bare address is refused too, so a forgotten prefix is not read as /32.
 */
export function parseAllowedNetworks(value: string): AllowedNetwork[] {
  const networks: AllowedNetwork[] = [];
  const problems: string[] = [];
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    try {
      networks.push(ipaddr.parseCIDR(entry));
    } catch {
      problems.push(`"${entry}" is not a CIDR range (address/prefix, e.g. 10.20.0.0/16 or fd00::/8)`);
    }
  }
  if (problems.length > 0) {
    throw new ConfigValidationError(
      'webhook-dispatcher',
      problems.map((problem) => ({ key: 'WEBHOOK_ALLOWED_NETWORKS', problem })),
    );
  }
  return networks;
}
