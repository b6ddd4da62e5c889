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

const LIMIT_HEADER = /^X-RateLimit-(Limit|Remaining|Reset)-(.+)$/;
const pending = new WeakMap<object, { limit?: number; remaining?: number }>();

/**
 * The `userPolicy` guard. Headers follow the IETF draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers) instead of @nestjs/throttler's per-name ones:
 * every limited response carries `RateLimit-Policy: "userPolicy";q=<limit>;w=<window s>` and
 * `RateLimit: "userPolicy";r=<remaining>;t=<seconds to reset>`, and a 429 the standard
 * `Retry-After: <seconds>` (RFC 9110 §10.2.3) where the library would send `Retry-After-userPolicy`.
 */
@Injectable()
export class UserPolicyThrottlerGuard extends ThrottlerGuard {
  protected override setResponseHeader(res: Record<string, unknown>, name: string, value: string | number): void {
    if (name.startsWith('Retry-After')) return super.setResponseHeader(res, 'Retry-After', value);
    const [, field, policy] = LIMIT_HEADER.exec(name) ?? [];
    if (field === undefined || policy === undefined) return super.setResponseHeader(res, name, value);
    // The library sets Limit, Remaining, then Reset for one throttler: emit both fields on Reset.
    const seen = pending.get(res) ?? {};
    if (field === 'Limit') seen.limit = Number(value);
    else if (field === 'Remaining') seen.remaining = Number(value);
    else {
      pending.delete(res);
      const windowSeconds = this.windowSecondsOf(policy);
      super.setResponseHeader(res, 'RateLimit-Policy', `"${policy}";q=${seen.limit ?? 0}${windowSeconds ? `;w=${windowSeconds}` : ''}`);
      super.setResponseHeader(res, 'RateLimit', `"${policy}";r=${seen.remaining ?? 0};t=${value}`);
      return;
    }
    pending.set(res, seen);
  }

  private windowSecondsOf(policy: string): number | undefined {
    const ttl = this.throttlers?.find((t) => t.name === policy)?.ttl;
    return typeof ttl === 'number' ? Math.ceil(ttl / 1000) : undefined;
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const caller = req['caller'] as { tenantId?: string; subject?: string } | undefined;
    if (caller?.subject) return `caller:${caller.tenantId ?? ''}:${caller.subject}`;
    return `ip:${String(req['ip'] ?? 'unknown')}`;
  }
}
