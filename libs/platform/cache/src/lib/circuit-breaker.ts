/** Thrown instead of calling while the breaker is open. */
export class CircuitOpenError extends Error {
  constructor(readonly retryInMs: number) {
    super(`circuit open: failing fast for another ${retryInMs} ms`);
    this.name = 'CircuitOpenError';
  }
}

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. Default 3. */
  failureThreshold?: number;
  /** How long it stays open before one probe call may try. Default 1000 ms. */
  openMs?: number;
  now?: () => number;
  /** Called when the circuit opens and when it closes again (one line per change, not per call). */
  onChange?: (state: 'open' | 'closed', reason?: string) => void;
  /**
   * A cheap call (a PING) that tests the dependency in the background once `openMs` has passed:
   * with it, no caller's call is ever the probe, so no caller waits on a dependency still down.
   * Without it, the first call after `openMs` is let through as the probe.
   */
  probe?: () => Promise<unknown>;
}

/**
 * Fail fast on a dependency that stopped answering in time. Closed: calls go through; after
 * `failureThreshold` failures in a row it opens: calls fail at once with `CircuitOpenError` for
 * `openMs`; then one call is let through as a probe (the rest still fail fast): its success closes
 * the circuit, its failure opens it for another `openMs`.
 *
 * For a cache this turns "every call waits out its timeout" during an outage into "a few calls do,
 * the rest are answered from the source of truth at once".
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt?: number;
  private probing = false;
  private readonly failureThreshold: number;
  private readonly openMs: number;
  private readonly now: () => number;

  constructor(private readonly options: CircuitBreakerOptions = {}) {
    this.failureThreshold = options.failureThreshold ?? 3;
    this.openMs = options.openMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openedAt === undefined) return 'closed';
    return this.now() - this.openedAt >= this.openMs ? 'half-open' : 'open';
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    const state = this.state;
    if (state === 'half-open' && this.options.probe) {
      if (!this.probing) this.probeInBackground(this.options.probe);
      throw new CircuitOpenError(0);
    }
    if (state === 'open' || (state === 'half-open' && this.probing)) {
      throw new CircuitOpenError(Math.max(0, this.openMs - (this.now() - (this.openedAt as number))));
    }
    const probe = state === 'half-open';
    if (probe) this.probing = true;
    try {
      const value = await call();
      this.succeeded();
      return value;
    } catch (error) {
      this.failed(error, probe);
      throw error;
    } finally {
      if (probe) this.probing = false;
    }
  }

  private probeInBackground(probe: () => Promise<unknown>): void {
    this.probing = true;
    probe().then(
      () => {
        this.probing = false;
        this.succeeded();
      },
      (error: unknown) => {
        this.probing = false;
        this.failed(error, true);
      },
    );
  }

  private succeeded(): void {
    this.failures = 0;
    if (this.openedAt === undefined) return;
    this.openedAt = undefined;
    this.options.onChange?.('closed');
  }

  private failed(error: unknown, probe: boolean): void {
    this.failures++;
    if (!probe && (this.openedAt !== undefined || this.failures < this.failureThreshold)) return;
    const wasOpen = this.openedAt !== undefined;
    this.openedAt = this.now();
    if (!wasOpen) this.options.onChange?.('open', error instanceof Error ? error.message : String(error));
  }
}
