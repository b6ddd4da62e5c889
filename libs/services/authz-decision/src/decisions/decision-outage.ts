import { AuthorizationUnavailableError, DecisionResult, DomainError } from '@lp/contracts';
import { unavailableDependency } from '@lp/platform/http';

/** Whether `error` is an outage (a dependency gone, a 503 of ours), not a bug or a refusal. */
function isOutage(error: unknown): boolean {
  if (error instanceof DomainError) return error.status === 503;
  return unavailableDependency(error) !== undefined;
}

/**
 * The decision routes answer an outage as the guard does (docs/decisions.md, One outage, one code):
 * no decision (a store or the cache gone while deciding: a thrown outage) and a decision that failed
 * closed for an infrastructure reason (`failure`: a policy store, the audit) are both a 503
 * `Authorization.Unavailable` with `Retry-After`, never `ServiceUnavailable` or
 * `Database.Unavailable` here and `Authorization.Unavailable` on a guarded route for the same
 * outage, nor a 200 Deny that reads as an answer. A bug stays a 500.
 */
export async function decidedOrUnavailable<T extends DecisionResult | DecisionResult[]>(decision: Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await decision;
  } catch (error) {
    throw isOutage(error) ? new AuthorizationUnavailableError() : error;
  }
  const results: DecisionResult[] = Array.isArray(result) ? result : [result];
  if (results.some((r) => r.failure !== undefined)) throw new AuthorizationUnavailableError();
  return result;
}

/** `decidedOrUnavailable` for work that reports a failure itself (an explanation's trace shows it): only a thrown outage. */
export async function unlessUnavailable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw isOutage(error) ? new AuthorizationUnavailableError() : error;
  }
}
