import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The AMQP header carrying an RPC's deadline: the epoch millisecond after which its caller no
 * longer waits for the answer. Absolute, not a remaining budget, so time spent in a queue counts
 * against it; the fleet's hosts keep their clocks in sync (NTP), and a skew of a few milliseconds
 * only moves the moment an abandoned request is dropped.
 */
export const DEADLINE_HEADER = 'x-deadline';

/** One request's budget: mutable, so a route's timeout policy can set it once known. */
export class DeadlineScope {
  /** Set once the work was answered: what still runs in this scope afterwards is nobody's request. */
  answered = false;

  constructor(
    /** Epoch ms. */
    public deadlineAt: number,
    /** When the budget started (epoch ms): a route's timeout policy counts from it. */
    readonly startedAt: number = Date.now(),
  ) {}
}

const storage = new AsyncLocalStorage<DeadlineScope>();

/**
 * The deadline of the request in progress (an HTTP request's remaining budget, an RPC's deadline),
 * kept beside the correlation id so the RPC client deep in a call chain sends no more than what is
 * left: a call's timeout is the smaller of its own and the remaining budget, and the deadline goes
 * with the message (`DEADLINE_HEADER`) so the server drops it once its caller has given up.
 *
 * Work that outlives its request (a loop woken by a request's commit, a cache refill started by
 * one) would otherwise inherit the request's budget and see it run out long after the answer was
 * sent: once its scope is `answered`, it carries no deadline.
 */
export const RequestDeadline = {
  run<T>(scope: DeadlineScope, fn: () => T): T {
    return storage.run(scope, fn);
  },

  /** Milliseconds left before the current request's deadline (negative once passed); undefined outside one. */
  remainingMs(now: number = Date.now()): number | undefined {
    const scope = storage.getStore();
    return scope && !scope.answered ? scope.deadlineAt - now : undefined;
  },

  /** Sets the current request's budget to `budgetMs` from when it started (a route's own timeout policy). */
  setBudget(budgetMs: number): void {
    const scope = storage.getStore();
    if (scope && !scope.answered) scope.deadlineAt = scope.startedAt + budgetMs;
  },
};

/** The deadline a message header names, or undefined when absent or not an epoch millisecond. */
export function parseDeadlineHeader(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
