import type { DeliveryTarget } from './delivery-ip-allowlist';

/**
 * The spec's per-subscriber rate-limit policy (§1, §2): asked before each attempt. An attempt it
 * holds back is not sent and not counted against the retries; it is due again after `retryAfterMs`.
 * Default: every delivery goes (`NullSubscriberRateLimit`).
 */
export abstract class SubscriberRateLimit {
  /** Null: send now; a number: wait that many ms before asking again. */
  abstract acquire(target: DeliveryTarget, now: Date): Promise<number | null>;
}

/** The spec's default: never limits. */
export class NullSubscriberRateLimit extends SubscriberRateLimit {
  acquire(): Promise<number | null> {
    return Promise.resolve(null);
  }
}
