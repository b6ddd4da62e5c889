/** Which subscription an address is checked for. */
export interface DeliveryTarget {
  tenantId: string;
  subscriptionId: string;
}

/**
 * The spec's IP allowlist policy (§1, §2): which resolved addresses a delivery may connect to,
 * checked at connect time after SSRF protection (which refuses internal ranges whatever this says).
 * Default: every address (`NullIpAllowlist`); a production adapter can narrow it.
 */
export abstract class DeliveryIpAllowlist {
  abstract allows(address: string, target: DeliveryTarget): boolean;
}

/** The spec's default: allows every address. */
export class NullIpAllowlist extends DeliveryIpAllowlist {
  allows(): boolean {
    return true;
  }
}
