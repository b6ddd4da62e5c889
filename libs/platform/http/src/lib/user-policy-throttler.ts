import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerModuleOptions } from '@nestjs/throttler';

export const USER_POLICY = 'userPolicy';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface UserPolicyLimit {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in milliseconds. */
  ttlMs: number;
}

/**
 * The `userPolicy` rate limit of the specs: applies to write routes only, keyed by the
 * authenticated caller (tenant + subject), falling back to the client address before
 * authentication has run. Reads are not limited by this policy.
 */
export function userPolicyThrottlerOptions(limit: UserPolicyLimit): ThrottlerModuleOptions {
  return {
    throttlers: [{ name: USER_POLICY, limit: limit.limit, ttl: limit.ttlMs }],
    errorMessage: 'Too many write requests for this caller; retry after the window resets.',
    skipIf: (context: ExecutionContext) => {
      if (context.getType() !== 'http') return true;
      const method = context.switchToHttp().getRequest<{ method: string }>().method;
      return READ_METHODS.has(method.toUpperCase());
    },
  };
}

@Injectable()
export class UserPolicyThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const caller = req['caller'] as { tenantId?: string; subject?: string } | undefined;
    if (caller?.subject) return `caller:${caller.tenantId ?? ''}:${caller.subject}`;
    return `ip:${String(req['ip'] ?? 'unknown')}`;
  }
}
