import { ConcurrencyLimit } from './concurrency-limit';

export interface GradientLimitOptions {
  /** Where the limit starts. */
  initial: number;
  /** The floor: never fewer requests at once, whatever the latency says. */
  min: number;
  /** The ceiling. */
  max: number;
  /** How much latency above the long-term average is still taken as no queueing (Netflix: 1.5). */
  tolerance?: number;
  /** Weight of a new estimate against the current limit (Netflix: 0.2). */
  smoothing?: number;
  /** Samples the long-term latency averages over (Netflix: 600). */
  longWindow?: number;
  /** Factor applied to the limit for each dropped request (Netflix's AIMD limit: 0.9). */
  backoff?: number;
}

/** Samples averaged plainly before the exponential average takes over (Netflix: 10). */
const WARMUP_SAMPLES = 10;

/**
 * Netflix concurrency-limits' Gradient2 (`Gradient2Limit`), ported: the limit follows the ratio of
 * the long-term average latency to the latest one. While requests take no longer than `tolerance`
 * times the long-term average the gradient is 1 and the limit creeps up by a small headroom
 * (√limit, as Netflix's first Gradient limit had it; Gradient2's default is a fixed 4); when latency rises (work queueing inside the process: the event loop, the
 * database pool, a slower dependency) the limit shrinks in proportion, never by more than half a
 * step, smoothed so one outlier does not swing it. The long-term average decays quickly once latency
 * is back to normal after long overload, and the limit does not grow while the process is
 * app-limited (fewer than half the limit in flight), so a quiet hour does not license a burst.
 *
 * Gradient2 alone drifts up under a standing overload (the long-term average catches up with the
 * loaded latency), so a dropped request, admitted work that still could not be done in time, also
 * cuts the limit multiplicatively as Netflix's AIMD limit does.
 */
export class GradientLimit implements ConcurrencyLimit {
  private estimate: number;
  private longRtt = 0;
  private samples = 0;
  private readonly tolerance: number;
  private readonly smoothing: number;
  private readonly longWindow: number;
  private readonly backoff: number;

  constructor(private readonly options: GradientLimitOptions) {
    const { initial, min, max } = options;
    if (!(min >= 1 && min <= initial && initial <= max))
      throw new RangeError(`adaptive limit needs 1 <= min <= initial <= max, got ${min}, ${initial}, ${max}`);
    this.estimate = initial;
    this.tolerance = options.tolerance ?? 1.5;
    this.smoothing = options.smoothing ?? 0.2;
    this.longWindow = options.longWindow ?? 600;
    this.backoff = options.backoff ?? 0.9;
  }

  get current(): number {
    return Math.floor(this.estimate);
  }

  onSample(rttMs: number, inFlightAtStart: number, dropped: boolean): void {
    if (dropped) {
      this.estimate = Math.max(this.options.min, this.estimate * this.backoff);
      return;
    }
    // A zero duration (a clock tick too coarse) would make the gradient infinite.
    const shortRtt = Math.max(rttMs, 0.001);
    const longRtt = this.addToLongRtt(shortRtt);
    // Latency is back to normal after long overload: forget the overload faster than the average would.
    if (longRtt / shortRtt > 2) this.longRtt *= 0.95;
    if (inFlightAtStart < this.estimate / 2) return;

    const gradient = Math.max(0.5, Math.min(1, (this.tolerance * longRtt) / shortRtt));
    const proposed = this.estimate * gradient + Math.sqrt(this.estimate);
    const smoothed = this.estimate * (1 - this.smoothing) + proposed * this.smoothing;
    this.estimate = Math.max(this.options.min, Math.min(this.options.max, smoothed));
  }

  private addToLongRtt(rtt: number): number {
    this.samples += 1;
    if (this.samples <= WARMUP_SAMPLES) this.longRtt += (rtt - this.longRtt) / this.samples;
    else this.longRtt += (rtt - this.longRtt) * (2 / (this.longWindow + 1));
    return this.longRtt;
  }
}
