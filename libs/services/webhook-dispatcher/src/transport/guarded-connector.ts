import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import type { DeliveryIpAllowlist, DeliveryTarget } from '../policies/delivery-ip-allowlist';
import type { DeliveryAddressPolicy } from './delivery-address-policy';
import { DeliveryConnectError } from './delivery-error';

/** Resolves a host name to every address it has (injectable: specs point names at any address). */
export type AddressLookup = (hostname: string) => Promise<readonly { address: string }[]>;

/** Nest token of an `AddressLookup` replacing the system resolver. */
export const DELIVERY_ADDRESS_LOOKUP = Symbol('DELIVERY_ADDRESS_LOOKUP');

/** The system resolver (getaddrinfo, on libuv's thread pool: never blocks the event loop). */
export const systemLookup: AddressLookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

// Errors after which the next allowed address of the host is worth trying.
const TRY_NEXT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

export interface GuardedConnectorOptions {
  policy: DeliveryAddressPolicy;
  allowlist: DeliveryIpAllowlist;
  target: DeliveryTarget;
  lookup: AddressLookup;
  connectTimeoutMs: number;
}

/**
 * An undici connector that resolves the host itself and connects only to an address SSRF
 * protection and the IP allowlist both allow, by IP, so the address checked is the address
 * connected to: no second resolution can swap it (DNS rebinding). Addresses refused are skipped and
 * the allowed ones tried in the resolver's order; when none is allowed nothing is connected
 * (`Webhook.AddressRefused`). TLS still names the original host (SNI, certificate check), and the
 * Host header comes from the origin, untouched.
 */
export function guardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const connectTo = buildConnector({ timeout: options.connectTimeoutMs });
  return (connectOptions, callback) => {
    const host = unbracketed(connectOptions.hostname);
    allowedAddresses(host, options).then(
      (addresses) => {
        const servername = connectOptions.servername || (isIP(host) ? undefined : host);
        const attempt = ([address, ...rest]: string[]) => {
          connectTo({ ...connectOptions, hostname: address ?? '', ...(servername && { servername }) }, (...result) => {
            const [error] = result;
            if (error === null) callback(...result);
            else if (TRY_NEXT.has((error as NodeJS.ErrnoException).code ?? '') && rest.length > 0) attempt(rest);
            else callback(error, null);
          });
        };
        attempt(addresses);
      },
      (error: Error) => callback(error, null),
    );
  };
}

async function allowedAddresses(host: string, options: GuardedConnectorOptions): Promise<string[]> {
  const resolved = isIP(host) ? [host] : await resolve(host, options.lookup);
  const refusals: string[] = [];
  const allowed = resolved.filter((address) => {
    const verdict = options.policy.check(address);
    if (!verdict.allowed) refusals.push(`${address} (${verdict.range})`);
    else if (!options.allowlist.allows(address, options.target)) refusals.push(`${address} (not in the IP allowlist)`);
    else return true;
    return false;
  });
  if (allowed.length === 0) throw new DeliveryConnectError('Webhook.AddressRefused', `${host}: every address refused: ${refusals.join(', ')}`);
  return allowed;
}

async function resolve(host: string, lookup: AddressLookup): Promise<string[]> {
  let found: readonly { address: string }[];
  try {
    found = await lookup(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DeliveryConnectError('Webhook.DnsFailed', `${host}: ${code ?? (error as Error).message}`);
  }
  if (found.length === 0) throw new DeliveryConnectError('Webhook.DnsFailed', `${host}: no address`);
  return found.map(({ address }) => address);
}

function unbracketed(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
