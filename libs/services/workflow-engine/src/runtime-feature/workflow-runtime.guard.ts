import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FeatureGate } from '@lp/authz-guard';
import type { AuthenticatedRequest } from '@lp/platform/auth';

/** The tenant feature every workflow write and background job needs (spec §1 Workflow, common rule 4). */
export const WORKFLOW_RUNTIME_FEATURE = 'workflow.runtime';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NOT_A_WRITE = 'lp:workflow-not-a-write';

/**
 * For POST routes that write nothing (validate, simulate): the feature gate does not apply. The
 * reason is required so every exemption is explained where it is made.
 */
export function WritesNothing(reason: string): MethodDecorator {
  if (!reason.trim()) throw new Error('WritesNothing needs a reason');
  return SetMetadata(NOT_A_WRITE, reason);
}

/**
 * Refuses every workflow write of a tenant whose `workflow.runtime` feature is off: 403
 * `Feature.Disabled` before the handler runs, so nothing is written. Applied to every HTTP write
 * method of the service (a write route cannot forget it); read routes and `@WritesNothing` routes
 * pass. Read through `FeatureGate` (cached per tenant, dropped by `authorization.feature.changed`).
 */
@Injectable()
export class WorkflowRuntimeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly features: FeatureGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & { method: string }>();
    if (!WRITE_METHODS.has(request.method.toUpperCase())) return true;
    if (this.reflector.get<string | undefined>(NOT_A_WRITE, context.getHandler())) return true;
    // No caller: authentication has answered (or the route is public, which no workflow write is).
    if (!request.caller) return true;
    await this.features.require(request.caller, WORKFLOW_RUNTIME_FEATURE);
    return true;
  }
}
