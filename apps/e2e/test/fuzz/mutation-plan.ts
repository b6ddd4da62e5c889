import { createHash, randomInt } from 'node:crypto';
import fc from 'fast-check';
import { FuzzOperation, FuzzRequest, generatedRequests, mutationKindsOf } from './request-mutations';

/** Requests per operation: a number (never fewer than one per kind), or `all` for the exhaustive sweep. */
export type FuzzBudget = number | 'all';

export interface FuzzSettings {
  seed: number;
  budget: FuzzBudget;
}

/**
 * The default budget. An operation with a body, fields and a path parameter has 16 kinds and gets
 * one of each; one without a body has 3 or 4 kinds and gets a few more hostile query and path
 * values and generated ones, up to 8. About 30 % of the exhaustive sweep's requests and time.
 */
export const DEFAULT_FUZZ_BUDGET = 8;
/** The exhaustive sweep pads an operation with few fixed requests to this many with generated ones. */
const EXHAUSTIVE_MINIMUM = 30;
const GENERATED = 'generated';

/**
 * `FUZZ_SEED` (an integer; a fresh random one when unset) and `FUZZ_BUDGET` (requests per
 * operation, or `all`). A bad value fails the run rather than silently fuzzing something else.
 */
export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  const seedText = env.FUZZ_SEED?.trim();
  if (seedText && !/^\d{1,15}$/.test(seedText)) throw new Error(`FUZZ_SEED must be a non-negative integer, got "${seedText}"`);
  const budgetText = env.FUZZ_BUDGET?.trim();
  if (budgetText && budgetText !== 'all' && !/^[1-9]\d{0,5}$/.test(budgetText))
    throw new Error(`FUZZ_BUDGET must be a positive integer or "all", got "${budgetText}"`);
  return {
    seed: seedText ? Number(seedText) : randomInt(2 ** 32),
    budget: budgetText === 'all' ? 'all' : budgetText ? Number(budgetText) : DEFAULT_FUZZ_BUDGET,
  };
}

/** What a failure message carries so the run's requests can be sent again. */
export function replayOf(settings: FuzzSettings): string {
  return `FUZZ_SEED=${settings.seed} FUZZ_BUDGET=${settings.budget}`;
}

export interface PlannedRequest extends FuzzRequest {
  kind: string;
}

/**
 * The requests for one operation: every kind at least once, then, while the budget lasts, one more
 * of each kind per round (generated values are a kind with no end), so the budget spreads over the
 * kinds. Which field, which hostile value and which generated value come from a PRNG seeded with
 * the run's seed and the operation, so the same seed sends the same requests (a route added does not
 * reshuffle the others), and a larger budget sends a superset of a smaller one's.
 */
export function planFor(op: FuzzOperation, settings: FuzzSettings): PlannedRequest[] {
  const kinds = mutationKindsOf(op);
  const seed = operationSeed(settings.seed, op);
  // noBias: every ordering equally likely (fast-check otherwise favours small, near-identity shuffles).
  const [orders] = fc.sample(fc.noBias(fc.tuple(...kinds.map((k) => fc.shuffledSubarray(k.variants, { minLength: k.variants.length })))), {
    seed,
    numRuns: 1,
  });
  const { counts, generated } = allot(
    kinds.map((k) => k.variants.length),
    settings.budget,
  );
  return [
    ...kinds.flatMap((k, i) => orders![i]!.slice(0, counts[i]).map((req) => ({ ...req, kind: k.kind }))),
    ...generatedRequests(op, generated, seed).map((req) => ({ ...req, kind: GENERATED })),
  ];
}

/** How many requests of each fixed kind (`sizes`: how many it has) and how many generated ones. */
export function allot(sizes: number[], budget: FuzzBudget): { counts: number[]; generated: number } {
  if (budget === 'all') {
    const fixed = sizes.reduce((sum, size) => sum + size, 0);
    return { counts: [...sizes], generated: Math.max(1, EXHAUSTIVE_MINIMUM - fixed) };
  }
  const counts = sizes.map(() => 1);
  let generated = 1;
  let left = budget - sizes.length - 1;
  for (let round = 1; left > 0; round++) {
    for (const [i, size] of sizes.entries()) {
      if (left > 0 && size > round) {
        counts[i]!++;
        left--;
      }
    }
    if (left > 0) {
      generated++;
      left--;
    }
  }
  return { counts, generated };
}

/** A digest of the requests in the order sent: two runs with the same seed and budget print the same one. */
export function digestOf(requests: FuzzRequest[]): string {
  const hash = createHash('sha256');
  for (const req of requests) hash.update(`${req.method} ${req.url}\n${req.body ?? ''}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** The operation's own seed, from the run's seed and what names the operation (not its position). */
function operationSeed(seed: number, op: FuzzOperation): number {
  return createHash('sha256').update(`${seed} ${op.service} ${op.method} ${op.path}`).digest().readInt32BE(0);
}
