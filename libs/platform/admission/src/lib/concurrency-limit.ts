/** How many requests a process may work on at once; an adaptive one learns it from what it measures. */
export interface ConcurrencyLimit {
  /** The limit now (at least 1). */
  readonly current: number;
  /**
   * One answered request: how long it took from admission to answer, how many requests were in
   * flight when it was admitted (itself included), and whether it was dropped (answered 503 or 504:
   * admitted work that could not be done in time, such as a decision that timed out).
   */
  onSample(rttMs: number, inFlightAtStart: number, dropped: boolean): void;
}

/** A configured limit (`ADMISSION_CONCURRENCY=fixed`): it never moves. */
export class FixedLimit implements ConcurrencyLimit {
  constructor(readonly current: number) {
    if (!(Number.isInteger(current) && current >= 1)) throw new RangeError(`a concurrency limit must be a positive integer, got ${current}`);
  }

  onSample(): void {
    // A configured limit learns nothing.
  }
}
