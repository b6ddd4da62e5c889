import { Logger } from '@nestjs/common';
import { AuthorizationDeniedError, AuthorizationUnavailableError, DecisionReply, DomainError } from '@lp/contracts';
import { RpcDeadlineExceededError, RpcRemoteError } from '@lp/platform/messaging';
import { authorizationUnavailable } from '@lp/platform/observability';

export type UnavailableCause = 'rpc' | 'decision-failure' | 'facts';

/**
 * How the guard and PermissionCheck read what the decision path gave them. Fail-closed either way
 * (only an explicit Permit lets a handler run), but an outage (no answer, a failed decision, facts
 * that could not be read) is a 503 `Authorization.Unavailable` with `Retry-After`, and a real
 * answer other than Permit is a 403 `Authorization.Denied`.
 *
 * Logging follows state, not traffic: the first failure of an outage is one warning, the first
 * success after it one info line; everything in between is counted (`authz_guard_unavailable_total`)
 * and logged at debug, so an outage at hundreds of requests per second does not drown the log.
 */
export class DecisionOutcomeReader {
  private outage = false;

  constructor(private readonly logger: Logger) {}

  /** The decision, if it permits; throws the 403 or 503 otherwise. */
  permitOrThrow(result: DecisionReply | undefined): DecisionReply {
    if (result?.failure) throw this.unavailable('decision-failure', `decision failed closed: ${result.failure}`);
    if (result?.outcome !== 'Permit' || result.permitted !== true) {
      this.recovered();
      this.logger.debug(`denied: ${result?.outcome ?? 'no outcome'} (${result?.decisionId ?? 'no decision id'})`);
      throw new AuthorizationDeniedError();
    }
    this.recovered();
    return result;
  }

  /** What to throw when the decision RPC itself failed. */
  rpcFailed(error: unknown): DomainError {
    // A refusal by authz-decision of the request itself (a 4xx problem) is an answer, not an
    // outage: the request the guard built could not be decided, so it is denied.
    if (error instanceof RpcRemoteError && error.problem.status < 500) {
      this.logger.debug(`decision refused the request: ${error.problem.code}`);
      return new AuthorizationDeniedError();
    }
    // The request being guarded ran out of its own time (its caller's deadline, which cut the
    // decision's wait short): no decision, so 503, but no sign that decisions are unavailable.
    if (error instanceof RpcDeadlineExceededError) {
      this.logger.debug(`no decision within the request's deadline: ${error.message}`);
      return new AuthorizationUnavailableError();
    }
    return this.unavailable('rpc', error instanceof Error ? error.message : String(error));
  }

  /** What to throw when a resource facts loader failed with something other than a client error. */
  factsFailed(error: unknown): DomainError {
    return this.unavailable('facts', error instanceof Error ? error.message : String(error));
  }

  private unavailable(cause: UnavailableCause, detail: string): AuthorizationUnavailableError {
    authorizationUnavailable.inc({ cause });
    if (!this.outage) {
      this.outage = true;
      this.logger.warn(`authorization decisions unavailable (${cause}: ${detail}); failing closed with 503 until they answer again`);
    } else {
      this.logger.debug(`authorization decision unavailable (${cause}: ${detail})`);
    }
    return new AuthorizationUnavailableError();
  }

  private recovered(): void {
    if (!this.outage) return;
    this.outage = false;
    this.logger.log('authorization decisions answer again');
  }
}
