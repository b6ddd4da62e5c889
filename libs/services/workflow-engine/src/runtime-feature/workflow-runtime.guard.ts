import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FeatureGate } from '@lp/authz-guard';
import { TrustedCaller, trustedCallerSchema } from '@lp/contracts';
import type { AuthenticatedRequest } from '@lp/platform/auth';

/** The tenant feature every workflow write and background job needs (spec §1 Workflow, common rule 4). */
export const WORKFLOW_RUNTIME_FEATURE = 'workflow.runtime';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NOT_A_WRITE = 'lp:workflow-not-a-write';

/**
 * For POST routes and RPC handlers that write nothing (validate, simulate, the todo list): the
 * feature gate does not apply. The reason is required so every exemption is explained where it is made.
 */
export function WritesNothing(reason: string): MethodDecorator {
  if (!reason.trim()) throw new Error('WritesNothing needs a reason');
  return SetMetadata(NOT_A_WRITE, reason);
}

/**
 * Refuses every workflow write of a tenant whose `workflow.runtime` feature is off: 403
 * `Feature.Disabled` before the handler runs, so nothing is written. A global guard of the HTTP
 * app, so it covers every HTTP write method (a write route cannot forget it); the RPC server does
 * not inherit global guards, so each RPC controller names it (`@UseGuards`) and every handler of
 * it counts as a write. Read routes and `@WritesNothing` handlers pass. Read through `FeatureGate` (cached per tenant, dropped by
 * `authorization.feature.changed`).
 */
@Injectable()
export class WorkflowRuntimeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly features: FeatureGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.get<string | undefined>(NOT_A_WRITE, context.getHandler())) return true;
    const caller = this.writer(context);
    // No caller: authentication (or, for RPC, the authorization guard's 401) answers.
    if (caller) await this.features.require(caller, WORKFLOW_RUNTIME_FEATURE);
    return true;
  }

  /** The caller of a write, or undefined for a read or a message without a well-formed caller. */
  private writer(context: ExecutionContext): TrustedCaller | undefined {
    if (context.getType() === 'rpc') {
      const caller = context.switchToRpc().getData<{ caller?: unknown } | null>()?.caller;
      return trustedCallerSchema.safeParse(caller).success ? (caller as TrustedCaller) : undefined;
    }
    if (context.getType() !== 'http') return undefined;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & { method: string }>();
    return WRITE_METHODS.has(request.method.toUpperCase()) ? request.caller : undefined;
  }
}
