import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  AuthorizationAction,
  AuthorizationDeniedError,
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
 * fail-closed reading: anything but an explicit Permit, a timeout or a transport error included, is
 * a denial). Call it before any write, so a denial leaves nothing behind.
 */
@Injectable()
export class PermissionCheck {
  private readonly logger = new Logger(PermissionCheck.name);

  constructor(
    private readonly rpc: RpcClient,
    @Optional() @Inject(AUTHORIZE_GUARD_OPTIONS) private readonly options: AuthorizeGuardOptions = { decisionTimeoutMs: 3_000 },
  ) {}

  /** Resolves when permitted; rejects with `AuthorizationDeniedError` (403 `Authorization.Denied`) otherwise. */
  async require(caller: TrustedCaller, query: PermissionQuery): Promise<DecisionResult> {
    const result = await this.decide(caller, query);
    if (!isPermit(result)) throw new AuthorizationDeniedError();
    return result as DecisionResult;
  }

  /** Whether the caller holds the permission; a failed decision answers `false`. */
  async allows(caller: TrustedCaller, query: PermissionQuery): Promise<boolean> {
    return isPermit(await this.decide(caller, query));
  }

  private async decide(caller: TrustedCaller, query: PermissionQuery): Promise<DecisionResult | undefined> {
    // A malformed query is a programming error, not a denial: let it surface.
    permissionCode(query.module, query.resource, query.action);
    const request: DecisionRequest = {
      caller,
      action: query.action,
      resource: { ...query.facts, module: query.module, resourceType: query.resource },
      correlationId: CorrelationContext.current(),
    };
    try {
      return await this.rpc.send<DecisionResult>(RpcPatterns.authz.decide, request, { timeoutMs: this.options.decisionTimeoutMs });
    } catch (error) {
      this.logger.warn({ err: error, pattern: RpcPatterns.authz.decide }, 'decision unavailable; failing closed');
      return undefined;
    }
  }
}

function isPermit(result: DecisionResult | undefined): boolean {
  return result?.outcome === 'Permit' && result.permitted === true;
}
