import type { DeliveryOutcome } from '../transport/webhook-transport';

/** The retry policy of spec §2, one per dispatcher; a subscription may set its own `maxRetries`. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  multiplier: number;
  /** Share of each wait drawn at random and taken off it (0.2: a wait lies in [0.8 d, d]). */
  jitter: number;
}

/** A `Retry-After` longer than this is clamped: a receiver cannot park a delivery for days. */
export const RETRY_AFTER_CAP_MS = 24 * 3_600_000;

/**
 * The wait before retry number `retry` (1 for the first retry): `initialDelay × multiplier^(retry-1)`
 * capped at `maxDelay`, less a random share of up to `jitter` of it, so the retries of many
 * deliveries that failed together (a receiver's outage) do not all come back at the same instant.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  if (!Number.isInteger(retry) || retry < 1) throw new Error(`retry must be a positive integer, got ${retry}`);
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** (retry - 1));
  return Math.round(base * (1 - policy.jitter * random()));
}

/** Whether an HTTP answer means the receiver took the delivery. */
export function isAccepted(outcome: DeliveryOutcome): boolean {
  return outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300;
}

/** What follows one attempt. */
export type AttemptVerdict =
  | { kind: 'succeeded' }
  | { kind: 'retry'; delayMs: number }
  /** Retries ran out: the delivery is dead (and goes to the dead-letter store). */
  | { kind: 'dead'; reason: 'RetriesExhausted' }
  /** 410 Gone: the receiver says the endpoint is gone for good; the subscription is deactivated. */
  | { kind: 'gone' };

/**
 * Decides after attempt number `roundAttempts` (counted since the delivery was created or last
 * replayed) of a delivery allowed `maxRetries` retries. Every answer but a 2xx is retried (a 4xx can
 * be a receiver's bad deploy as much as a bad request); 410 stops at once; a 429 or 503 with
 * `Retry-After` waits what the receiver asked (up to `RETRY_AFTER_CAP_MS`) instead of the backoff.
 */
export function verdictOf(outcome: DeliveryOutcome, roundAttempts: number, maxRetries: number, policy: RetryPolicy, random?: () => number): AttemptVerdict {
  if (isAccepted(outcome)) return { kind: 'succeeded' };
  if (outcome.kind === 'response' && outcome.status === 410) return { kind: 'gone' };
  const retry = roundAttempts; // attempt 1 failed → retry 1 next
  if (retry > maxRetries) return { kind: 'dead', reason: 'RetriesExhausted' };
  if (outcome.kind === 'response' && outcome.retryAfterMs !== undefined && (outcome.status === 429 || outcome.status === 503)) {
    return { kind: 'retry', delayMs: Math.min(Math.max(0, outcome.retryAfterMs), RETRY_AFTER_CAP_MS) };
  }
  return { kind: 'retry', delayMs: retryDelayMs(policy, retry, random) };
}
