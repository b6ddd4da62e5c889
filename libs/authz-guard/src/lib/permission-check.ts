import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  AuthorizationAction,
  DecisionRequest,
  DecisionResult,
  permissionCode,
  ResourceDescriptor,
  RpcPatterns,
  TrustedCaller,
} from '@lp/contracts';
import { RpcClient } from '@lp/platform/messaging';
import { CorrelationContext } from '@lp/platform/observability';
import { AUTHORIZE_GUARD_OPTIONS, AuthorizeGuardOptions } from './authorize.guard';
import { DecisionOutcomeReader } from './decision-outcome';

/** A permission asked for inside a handler, in the terms of `@Authorize`. */
export interface PermissionQuery {
  module: string;
  resource: string;
  action: AuthorizationAction;
  /** Server-side resource facts, as a `ResourceFactsLoader` would give them; never from the request body. */
  facts?: Omit<ResourceDescriptor, 'module' | 'resourceType'>;
}

/**
 * A second decision inside a handler, for a route whose need depends on its input (e.g. changing a
 * feature's global default needs `authorization.feature-default.update` on top of the route's own
 * permission). Asks authz-decision exactly as the guard does (RPC `authz.decide`, same caller, same
 * fail-closed reading: a Deny is a 403, no decision a 503 `Authorization.Unavailable`). Call it
 * before any write, so a refusal leaves nothing behind.
 */
@Injectable()
export class PermissionCheck {
  private readonly logger = new Logger(PermissionCheck.name);
  private readonly outcome = new DecisionOutcomeReader(this.logger);

  constructor(
    private readonly rpc: RpcClient,
    @Optional() @Inject(AUTHORIZE_GUARD_OPTIONS) private readonly options: AuthorizeGuardOptions = { decisionTimeoutMs: 3_000 },
  ) {}

  /** Resolves when permitted; rejects with 403 `Authorization.Denied` on a denial, 503 `Authorization.Unavailable` on no decision. */
  async require(caller: TrustedCaller, query: PermissionQuery): Promise<DecisionResult> {
    let answer: DecisionResult;
    try {
      answer = await this.decide(caller, query);
    } catch (error) {
      throw this.outcome.rpcFailed(error);
    }
    return this.outcome.permitOrThrow(answer);
  }

  /** Whether the caller holds the permission; a failed decision answers `false` (fail closed, for optional extras). */
  async allows(caller: TrustedCaller, query: PermissionQuery): Promise<boolean> {
    try {
      return isPermit(await this.decide(caller, query));
    } catch (error) {
      this.logger.debug(`decision unavailable; answering not allowed: ${String(error)}`);
      return false;
    }
  }

  private async decide(caller: TrustedCaller, query: PermissionQuery): Promise<DecisionResult> {
    // A malformed query is a programming error, not a denial: let it surface.
    permissionCode(query.module, query.resource, query.action);
    const request: DecisionRequest = {
      caller,
      action: query.action,
      resource: { ...query.facts, module: query.module, resourceType: query.resource },
      correlationId: CorrelationContext.current(),
    };
    return this.rpc.send<DecisionResult>(RpcPatterns.authz.decide, request, { timeoutMs: this.options.decisionTimeoutMs });
  }
}

function isPermit(result: DecisionResult | undefined): boolean {
  return !result?.failure && result?.outcome === 'Permit' && result.permitted === true;
}
