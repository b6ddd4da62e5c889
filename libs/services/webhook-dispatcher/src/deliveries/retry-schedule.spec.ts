import { DeliveryOutcome } from '../transport/webhook-transport';
import { RETRY_AFTER_CAP_MS, retryDelayMs, RetryPolicy, verdictOf } from './retry-schedule';

const SPEC_DEFAULTS: RetryPolicy = { maxRetries: 5, initialDelayMs: 5_000, maxDelayMs: 3_600_000, multiplier: 2, jitter: 0.2 };
const response = (status: number, retryAfterMs?: number): DeliveryOutcome => ({ kind: 'response', status, body: null, latencyMs: 3, retryAfterMs });
const noJitter = () => 0;
const fullJitter = () => 1;

describe('retry schedule (spec §2: 5 s × 2 up to 1 h, with jitter)', () => {
  it.each([
    [1, 5_000],
    [2, 10_000],
    [3, 20_000],
    [4, 40_000],
    [5, 80_000],
    [10, 2_560_000],
    [11, 3_600_000], // 5,120,000 capped at MaxDelay
    [20, 3_600_000],
  ])('retry %i waits %i ms before jitter', (retry, expected) => {
    expect(retryDelayMs(SPEC_DEFAULTS, retry, noJitter)).toBe(expected);
  });

  it('takes at most the jitter share off a wait, never adds to it', () => {
    expect(retryDelayMs(SPEC_DEFAULTS, 1, fullJitter)).toBe(4_000);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(SPEC_DEFAULTS, 3);
      expect(delay).toBeGreaterThanOrEqual(16_000);
      expect(delay).toBeLessThanOrEqual(20_000);
    }
  });

  it('refuses a retry number below 1', () => {
    expect(() => retryDelayMs(SPEC_DEFAULTS, 0)).toThrow(/positive integer/);
  });
});

describe('what follows an attempt', () => {
  it('a 2xx answer is a success', () => {
    expect(verdictOf(response(200), 1, 5, SPEC_DEFAULTS)).toEqual({ kind: 'succeeded' });
    expect(verdictOf(response(204), 6, 5, SPEC_DEFAULTS)).toEqual({ kind: 'succeeded' });
  });

  it.each([[301], [400], [404], [500], [502]])('%i is retried with the backoff while retries remain', (status) => {
    expect(verdictOf(response(status), 1, 5, SPEC_DEFAULTS, noJitter)).toEqual({ kind: 'retry', delayMs: 5_000 });
    expect(verdictOf(response(status), 5, 5, SPEC_DEFAULTS, noJitter)).toEqual({ kind: 'retry', delayMs: 80_000 });
  });

  it('a network failure is retried like an error answer', () => {
    const timeout: DeliveryOutcome = { kind: 'error', code: 'Webhook.Timeout', message: 'timed out', latencyMs: 10_000 };
    expect(verdictOf(timeout, 2, 5, SPEC_DEFAULTS, noJitter)).toEqual({ kind: 'retry', delayMs: 10_000 });
  });

  it('dies after the first attempt plus MaxRetries retries', () => {
    expect(verdictOf(response(500), 6, 5, SPEC_DEFAULTS)).toEqual({ kind: 'dead', reason: 'RetriesExhausted' });
    expect(verdictOf(response(500), 1, 0, SPEC_DEFAULTS)).toEqual({ kind: 'dead', reason: 'RetriesExhausted' });
  });

  it('410 Gone stops at once, whatever retries remain', () => {
    expect(verdictOf(response(410), 1, 5, SPEC_DEFAULTS)).toEqual({ kind: 'gone' });
  });

  it('429 and 503 with Retry-After wait what the receiver asked, up to the cap', () => {
    expect(verdictOf(response(429, 120_000), 1, 5, SPEC_DEFAULTS)).toEqual({ kind: 'retry', delayMs: 120_000 });
    expect(verdictOf(response(503, 1_000), 4, 5, SPEC_DEFAULTS)).toEqual({ kind: 'retry', delayMs: 1_000 });
    expect(verdictOf(response(503, 10 * RETRY_AFTER_CAP_MS), 1, 5, SPEC_DEFAULTS)).toEqual({ kind: 'retry', delayMs: RETRY_AFTER_CAP_MS });
    // Retry-After on another status is not the receiver asking for a pause: the backoff applies.
    expect(verdictOf(response(500, 120_000), 1, 5, SPEC_DEFAULTS, noJitter)).toEqual({ kind: 'retry', delayMs: 5_000 });
  });

  it('Retry-After does not extend the retry budget', () => {
    expect(verdictOf(response(429, 1_000), 6, 5, SPEC_DEFAULTS)).toEqual({ kind: 'dead', reason: 'RetriesExhausted' });
  });
});
