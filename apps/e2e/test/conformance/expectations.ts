import { DecisionResult, EvaluatorName, ProblemDetails } from '@lp/contracts';
import { RpcRemoteError } from '@lp/platform/messaging';
import { ConformanceExpectation } from './corpus';

/*
 * The in-memory runner's assertions (conformance-corpus.spec.ts `assertResult`), applied to the
 * `DecisionResult` the service answers over RabbitMQ. `validUntil` is not part of that answer (the
 * service keeps it to bound its cache entry); the runner reads it from `authz.explain` instead.
 */

/** Whether a case's expectations are order-sensitive on the service: the service has one registration order. */
export function orderMatters(evaluatorOrder: readonly EvaluatorName[] | undefined, serviceOrder: readonly EvaluatorName[]): boolean {
  return evaluatorOrder === undefined || evaluatorOrder.join() === serviceOrder.join();
}

export function assertDecision(result: DecisionResult, expected: ConformanceExpectation, ordered: boolean): void {
  expect(result.outcome).toBe(expected.outcome);
  expect(result.permitted).toBe(expected.outcome === 'Permit');
  // A corpus case states the whole row: every evaluator the service ran must be listed.
  const listed = Object.keys(expected.evaluators ?? {}).sort();
  expect(listed).toEqual(result.evaluations.map((e) => e.evaluator).sort());
  for (const [name, want] of Object.entries(expected.evaluators ?? {})) {
    const got = result.evaluations.find((e) => e.evaluator === name);
    const verdict = typeof want === 'string' ? want : want.verdict;
    expect({ evaluator: name, verdict: got?.verdict }).toEqual({ evaluator: name, verdict });
    if (typeof want !== 'string') expect({ evaluator: name, reason: got?.reason }).toEqual({ evaluator: name, reason: expect.stringContaining(want.reason) });
  }
  const sorted = <T>(items: readonly T[]) => (ordered ? [...items] : [...items].sort());
  const denials = result.evaluations.filter((e) => e.verdict === 'Deny').map((e) => e.evaluator);
  if (expected.denials) expect(sorted(denials)).toEqual(sorted(expected.denials));
  if (expected.obligations) expect(sorted(result.obligations)).toEqual(sorted(expected.obligations));
  if (expected.dataScope) expect(result.dataScope).toEqual(expected.dataScope);
  if (expected.failure !== undefined) expect(result.failure ?? null).toBe(expected.failure);
  if (expected.reason === null) expect(result.reason).toBeUndefined();
  else if (expected.reason !== undefined) expect(result.reason).toContain(expected.reason);
}

/** `assertDecision` as a predicate, for polling until an integration event has been applied. */
export function satisfies(result: DecisionResult, expected: ConformanceExpectation, ordered: boolean): boolean {
  try {
    assertDecision(result, expected, ordered);
    return true;
  } catch {
    return false;
  }
}

/**
 * The service's form of `InvalidDecisionRequestError`: the RPC fails with the validation problem
 * (400 `Validation.Failed`) and names each field the corpus expects.
 */
export function assertRefused(error: unknown, expected: ConformanceExpectation): void {
  expect(error).toBeInstanceOf(RpcRemoteError);
  const problem = (error as RpcRemoteError).problem as ProblemDetails;
  expect({ status: problem.status, code: problem.code }).toEqual({ status: 400, code: 'Validation.Failed' });
  for (const field of expected.errorFields ?? []) expect(problem.errors ?? {}).toHaveProperty([field]);
}
