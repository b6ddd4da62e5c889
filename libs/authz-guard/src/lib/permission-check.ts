import { Injectable } from '@nestjs/common';
import { AuthorizationAction, DecisionReply, permissionCode, ResourceDescriptor, TrustedCaller } from '@lp/contracts';
import { DecisionClient, DecisionQuestion } from './decision-client';

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
  constructor(private readonly decisions: DecisionClient) {}

  /** Resolves when permitted; rejects with 403 `Authorization.Denied` on a denial, 503 `Authorization.Unavailable` on no decision. */
  async require(caller: TrustedCaller, query: PermissionQuery): Promise<DecisionReply> {
    return this.decisions.require(questionOf(caller, query));
  }

  /** Whether the caller holds the permission; a failed decision answers `false` (fail closed, for optional extras). */
  async allows(caller: TrustedCaller, query: PermissionQuery): Promise<boolean> {
    return this.decisions.allows(questionOf(caller, query));
  }
}

function questionOf(caller: TrustedCaller, query: PermissionQuery): DecisionQuestion {
  // A malformed query is a programming error, not a denial: let it surface.
  permissionCode(query.module, query.resource, query.action);
  return { caller, action: query.action, resource: { ...query.facts, module: query.module, resourceType: query.resource } };
}
