import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuthorizationAction, AuthzRpc, DecisionReply, ResourceDescriptor, TrustedCaller } from '@lp/contracts';
import { RpcClient } from '@lp/platform/messaging';
import { CorrelationContext } from '@lp/platform/observability';
import { DecisionOutcomeReader } from './decision-outcome';

export const AUTHORIZE_GUARD_OPTIONS = Symbol('AUTHORIZE_GUARD_OPTIONS');
export interface AuthorizeGuardOptions {
  /** How long to wait for authz-decision before failing closed. */
  decisionTimeoutMs: number;
  /** The service hosting the guard (names its per-instance event queues). */
  service: string;
}

/** What a decision is asked about: the caller from the token, the declared action, the resource with its server-side facts. */
export interface DecisionQuestion {
  caller: TrustedCaller;
  action: AuthorizationAction;
  resource: ResourceDescriptor;
}

/**
 * The one way a service asks authz-decision (RPC `authz.decide`, the guard's timeout, the request's
 * correlation id) and reads the answer: a Permit passes; a Deny or NoMatchingPolicy is a 403
 * `Authorization.Denied`; no decision (transport error, timeout, a decision that failed closed) is a
 * 503 `Authorization.Unavailable`. The guard and `PermissionCheck` share it, and with it the outage
 * log: one warning when decisions stop, one line when they answer again (`DecisionOutcomeReader`).
 */
@Injectable()
export class DecisionClient {
  private readonly logger = new Logger(DecisionClient.name);
  private readonly outcome = new DecisionOutcomeReader(this.logger);

  constructor(
    private readonly rpc: RpcClient,
    @Inject(AUTHORIZE_GUARD_OPTIONS) private readonly options: AuthorizeGuardOptions,
  ) {}

  /** Resolves with the Permit; rejects with 403 on a denial, 503 when no decision could be made. */
  async require(question: DecisionQuestion): Promise<DecisionReply> {
    let answer: DecisionReply;
    try {
      answer = await this.ask(question);
    } catch (error) {
      throw this.outcome.rpcFailed(error);
    }
    return this.outcome.permitOrThrow(answer);
  }

  /** Whether the question is permitted; no decision answers `false` (fail closed, for optional extras). */
  async allows(question: DecisionQuestion): Promise<boolean> {
    try {
      const answer = await this.ask(question);
      return !answer?.failure && answer?.outcome === 'Permit' && answer.permitted === true;
    } catch (error) {
      this.logger.debug(`decision unavailable; answering not allowed: ${String(error)}`);
      return false;
    }
  }

  /** The 503 for resource facts that could not be read: the request cannot be decided. */
  factsFailed(error: unknown): Error {
    return this.outcome.factsFailed(error);
  }

  private ask({ caller, action, resource }: DecisionQuestion): Promise<DecisionReply> {
    const correlationId = CorrelationContext.current();
    const payload = correlationId === undefined ? { action, resource } : { action, resource, correlationId };
    return this.rpc.call(AuthzRpc.decide, { caller, payload }, { timeoutMs: this.options.decisionTimeoutMs });
  }
}
