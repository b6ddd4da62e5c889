import { AsyncResource } from 'node:async_hooks';
import { ConcurrencyLimit } from './concurrency-limit';

/** What admission did with one request: ran it at once, ran it after a wait, refused it on arrival, refused it after waiting too long. */
export type AdmissionOutcome = 'admitted' | 'queued' | 'refused' | 'expired';

/** Time as admission sees it: a monotonic clock and a timer (replaceable, so a spec drives both by hand). */
export interface AdmissionClock {
  now(): number;
  /** Calls `fn` after `ms`; returns the cancellation. */
  after(ms: number, fn: () => void): () => void;
}

const systemClock: AdmissionClock = {
  now: () => performance.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    // A queued request's deadline never keeps a stopping process alive.
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface AdmissionOptions {
  limit: ConcurrencyLimit;
  /** Longest a request may wait for a slot; one that would wait longer is refused on arrival. */
  queueTimeoutMs: number;
  /** Most requests waiting at once. */
  queueSize: number;
  clock?: AdmissionClock;
  /** Told what happened to each request (the metrics). */
  onOutcome?: (outcome: AdmissionOutcome) => void;
}

/**
 * How an admitted request ended: `answered`, `dropped` (answered, but as a failure to do the work in
 * time: 503, 504), or `abandoned` (the client left; its duration tells the limit nothing).
 */
export type AdmissionRelease = 'answered' | 'dropped' | 'abandoned';

/** An admitted request's slot: release it exactly once, when it ended. */
export interface AdmissionTicket {
  release(how: AdmissionRelease): void;
}

interface Waiter {
  deadline: number;
  admit: (ticket: AdmissionTicket) => void;
  refuse: (outcome: 'expired') => void;
}

/** Weight of one duration in the average service time that predicts queue waits. */
const SERVICE_TIME_WEIGHT = 0.05;

/**
 * Bounds the work a process admits: at most `limit.current` requests at once (a fixed or an
 * adaptive limit), then a short FIFO queue whose every entry has a deadline. A request is refused
 * on arrival, before any work is spent on it, when the queue is full or when the wait it would
 * face (requests ahead of it × average service time ÷ limit, Little's law) exceeds the queue
 * timeout; a request still waiting at its deadline is refused then. So under a burst the process
 * keeps working at its limit on requests it can answer in time and turns the rest away at once,
 * rather than accepting everything and answering nothing in time (congestion collapse).
 *
 * Callbacks run synchronously, each in the async context of the request it belongs to.
 */
export class AdmissionController {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private head = 0;
  private serviceMs = 0;
  private cancelTimer?: () => void;
  private readonly clock: AdmissionClock;

  constructor(private readonly options: AdmissionOptions) {
    if (!(options.queueTimeoutMs >= 0 && options.queueSize >= 0)) throw new RangeError('queue timeout and size must not be negative');
    this.clock = options.clock ?? systemClock;
  }

  get limit(): number {
    return this.options.limit.current;
  }

  get inFlight(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length - this.head;
  }

  /**
   * Admits the request now (`admit` with its ticket), queues it (then `admit` or `refuse('expired')`
   * later), or refuses it now (`refuse('refused')`).
   */
  admit(admit: (ticket: AdmissionTicket) => void, refuse: (outcome: 'refused' | 'expired') => void): void {
    if (this.queued === 0 && this.running < this.limit) {
      this.options.onOutcome?.('admitted');
      return admit(this.ticket());
    }
    if (!this.roomInQueue()) {
      this.options.onOutcome?.('refused');
      return refuse('refused');
    }
    this.waiting.push({ deadline: this.clock.now() + this.options.queueTimeoutMs, admit: AsyncResource.bind(admit), refuse: AsyncResource.bind(refuse) });
    this.armTimer();
  }

  /** Refuses whoever still waits and stops the timer (the process is stopping). */
  close(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    for (let w = this.shift(); w; w = this.shift()) {
      this.options.onOutcome?.('expired');
      w.refuse('expired');
    }
  }

  private roomInQueue(): boolean {
    const ahead = this.queued;
    if (ahead >= this.options.queueSize) return false;
    // Before any request has been answered there is nothing to predict from: the deadline still holds.
    return this.serviceMs === 0 || ((ahead + 1) * this.serviceMs) / this.limit <= this.options.queueTimeoutMs;
  }

  private ticket(): AdmissionTicket {
    this.running += 1;
    const startedAt = this.clock.now();
    const inFlightAtStart = this.running;
    let released = false;
    return {
      release: (how) => {
        if (released) return;
        released = true;
        this.running -= 1;
        if (how !== 'abandoned') {
          const rtt = this.clock.now() - startedAt;
          this.serviceMs = this.serviceMs === 0 ? rtt : this.serviceMs + (rtt - this.serviceMs) * SERVICE_TIME_WEIGHT;
          this.options.limit.onSample(rtt, inFlightAtStart, how === 'dropped');
        }
        this.drain();
      },
    };
  }

  /** Hands free slots to the waiters in order, refusing those whose deadline passed. */
  private drain(): void {
    while (this.queued > 0 && this.running < this.limit) {
      const next = this.shift() as Waiter;
      if (next.deadline <= this.clock.now()) {
        this.options.onOutcome?.('expired');
        next.refuse('expired');
      } else {
        this.options.onOutcome?.('queued');
        next.admit(this.ticket());
      }
    }
  }

  /** One timer at a time, for the oldest waiter's deadline: the queue is FIFO, so it is the earliest. */
  private armTimer(): void {
    if (this.cancelTimer || this.queued === 0) return;
    const first = this.waiting[this.head] as Waiter;
    this.cancelTimer = this.clock.after(Math.max(0, first.deadline - this.clock.now()), () => {
      this.cancelTimer = undefined;
      this.expireDue();
      this.armTimer();
    });
  }

  private expireDue(): void {
    const now = this.clock.now();
    while (this.queued > 0 && (this.waiting[this.head] as Waiter).deadline <= now) {
      const due = this.shift() as Waiter;
      this.options.onOutcome?.('expired');
      due.refuse('expired');
    }
  }

  private shift(): Waiter | undefined {
    if (this.head >= this.waiting.length) return undefined;
    const waiter = this.waiting[this.head];
    this.head += 1;
    // Compact now and then instead of Array#shift per request.
    if (this.head === this.waiting.length) {
      this.waiting.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    return waiter;
  }
}
