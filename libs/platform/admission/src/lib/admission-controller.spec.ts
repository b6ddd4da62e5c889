import { AdmissionClock, AdmissionController, AdmissionOutcome, AdmissionTicket } from './admission-controller';
import { FixedLimit } from './concurrency-limit';

/** Time moved by the spec alone: `advance` fires the timers that fall due, in order. */
class ManualClock implements AdmissionClock {
  private t = 0;
  private timers: Array<{ at: number; fn: () => void }> = [];
  now(): number {
    return this.t;
  }
  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.t + ms, fn };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((x) => x !== timer));
  }
  advance(ms: number): void {
    const until = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = due.at;
      due.fn();
    }
    this.t = until;
  }
}

/** One request through the controller: what happened to it, and its ticket once admitted. */
function request(controller: AdmissionController) {
  const seen: { outcome?: string; ticket?: AdmissionTicket } = {};
  controller.admit(
    (ticket) => {
      seen.outcome = 'admitted';
      seen.ticket = ticket;
    },
    (outcome) => (seen.outcome = outcome),
  );
  return seen;
}

describe('AdmissionController', () => {
  let clock: ManualClock;
  let outcomes: AdmissionOutcome[];
  const controller = (limit: number, queueSize: number, queueTimeoutMs = 100) =>
    new AdmissionController({ limit: new FixedLimit(limit), queueSize, queueTimeoutMs, clock, onOutcome: (o) => outcomes.push(o) });

  beforeEach(() => {
    clock = new ManualClock();
    outcomes = [];
  });

  it('admits up to the limit, queues a few, refuses the rest at once', () => {
    const admission = controller(2, 2);
    const burst = Array.from({ length: 7 }, () => request(admission));
    expect(burst.map((r) => r.outcome ?? 'waiting')).toEqual(['admitted', 'admitted', 'waiting', 'waiting', 'refused', 'refused', 'refused']);
    expect([admission.inFlight, admission.queued]).toEqual([2, 2]);

    // A slot frees: the oldest waiter gets it.
    burst[0]!.ticket!.release('answered');
    expect(burst[2]!.outcome).toBe('admitted');
    expect(burst[3]!.outcome).toBeUndefined();
    expect(outcomes.sort()).toEqual(['admitted', 'admitted', 'queued', 'refused', 'refused', 'refused']);
  });

  it('refuses a waiter at its deadline, not later', () => {
    const admission = controller(1, 5, 100);
    const first = request(admission);
    const waiter = request(admission);
    clock.advance(99);
    expect(waiter.outcome).toBeUndefined();
    clock.advance(1);
    expect(waiter.outcome).toBe('expired');
    expect(admission.queued).toBe(0);
    // A slot freed afterwards goes to nobody, and the next arrival runs at once.
    first.ticket!.release('answered');
    expect(request(admission).outcome).toBe('admitted');
  });

  it('refuses on arrival a request that would wait past the queue timeout (Little’s law)', () => {
    const admission = controller(2, 100, 100);
    // Each request takes 60 ms: two slots drain a waiter every 30 ms.
    const warm = [request(admission), request(admission)];
    clock.advance(60);
    for (const r of warm) r.ticket!.release('answered');
    const held = [request(admission), request(admission)];
    const queued = Array.from({ length: 5 }, () => request(admission));
    // 3 waiters × 60 ms ÷ 2 slots = 90 ms fits in 100; a 4th would wait 120 ms.
    expect(queued.map((r) => r.outcome ?? 'waiting')).toEqual(['waiting', 'waiting', 'waiting', 'refused', 'refused']);
    expect(held.every((r) => r.outcome === 'admitted')).toBe(true);
  });

  it('releases a slot once per ticket, and a client that left tells the limit nothing', () => {
    const samples: number[] = [];
    const admission = new AdmissionController({
      limit: { current: 1, onSample: (rtt) => samples.push(rtt) },
      queueSize: 1,
      queueTimeoutMs: 100,
      clock,
    });
    const a = request(admission);
    const b = request(admission);
    clock.advance(10);
    a.ticket!.release('abandoned');
    a.ticket!.release('answered');
    expect(admission.inFlight).toBe(1);
    expect(b.outcome).toBe('admitted');
    clock.advance(5);
    b.ticket!.release('answered');
    expect(samples).toEqual([5]);
    expect(admission.inFlight).toBe(0);
  });

  it('serves again at full width once a burst is over', () => {
    const admission = controller(3, 0);
    const burst = Array.from({ length: 10 }, () => request(admission));
    expect(burst.filter((r) => r.outcome === 'refused')).toHaveLength(7);
    for (const r of burst) r.ticket?.release('answered');
    const after = Array.from({ length: 3 }, () => request(admission));
    expect(after.map((r) => r.outcome)).toEqual(['admitted', 'admitted', 'admitted']);
  });

  it('refuses whoever still waits when closed', () => {
    const admission = controller(1, 3);
    request(admission);
    const waiting = [request(admission), request(admission)];
    admission.close();
    expect(waiting.map((r) => r.outcome)).toEqual(['expired', 'expired']);
  });
});
