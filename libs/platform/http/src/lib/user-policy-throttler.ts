import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail, ThrottlerModuleOptions, ThrottlerRequest } from '@nestjs/throttler';

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

/** One policy's standing for the response at hand: what its `RateLimit` fields would say. */
interface PolicyStanding {
  policy: string;
  limit: number;
  remaining: number;
  /** Seconds until the window (or, once refused, the block) ends. */
  reset: number;
  windowMs?: number;
}

/** Per response: the policy being counted, the library's header values of it so far, the policy advertised. */
interface ResponseLimits {
  counting?: { policy: string; windowMs: number; limit?: number; remaining?: number };
  advertised?: PolicyStanding;
}

const limitsOf = new WeakMap<object, ResponseLimits>();

/**
 * Whether `candidate` is closer to refusing the caller than `current`: fewer requests left, or as
 * many but for longer (a later reset holds the caller back longer once they are used up).
 */
function bitesSooner(candidate: PolicyStanding, current: PolicyStanding): boolean {
  return candidate.remaining < current.remaining || (candidate.remaining === current.remaining && candidate.reset > current.reset);
}

/**
 * The `userPolicy` guard, and the base of every rate-limit guard of the fleet (the MCP gateway's
 * two policies). Headers follow the IETF draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers) instead of @nestjs/throttler's per-name ones:
 * every limited response carries `RateLimit-Policy: "<policy>";q=<limit>;w=<window s>` and
 * `RateLimit: "<policy>";r=<remaining>;t=<seconds to reset>`, and a 429 the standard
 * `Retry-After: <seconds>` (RFC 9110 §10.2.3) where the library would send `Retry-After-<policy>`.
 *
 * Where several policies count a request, the fields name the one closest to biting (fewest
 * requests left), as the draft advises: the library would leave whichever it counted last. A 429
 * names the policy that refused it, with `r=0` and the time until its block ends, and so does its
 * problem's detail; a client that watched `r` reach 0 sees the same policy refuse it.
 */
@Injectable()
export class UserPolicyThrottlerGuard extends ThrottlerGuard {
  protected override async handleRequest(requestProps: ThrottlerRequest): Promise<boolean> {
    const { res } = this.getRequestResponse(requestProps.context);
    const limits = limitsOf.get(res) ?? {};
    limits.counting = { policy: requestProps.throttler.name ?? 'default', windowMs: requestProps.ttl };
    limitsOf.set(res, limits);
    return super.handleRequest(requestProps);
  }

  protected override setResponseHeader(res: Record<string, unknown>, name: string, value: string | number): void {
    if (name.startsWith('Retry-After')) return super.setResponseHeader(res, 'Retry-After', value);
    const [, field, policy] = LIMIT_HEADER.exec(name) ?? [];
    const counting = limitsOf.get(res)?.counting;
    if (field === undefined || policy === undefined || counting?.policy !== policy) return super.setResponseHeader(res, name, value);
    // The library sets Limit, Remaining, then Reset for one policy: weigh the policy on Reset.
    if (field === 'Limit') counting.limit = Number(value);
    else if (field === 'Remaining') counting.remaining = Number(value);
    else {
      const standing = { policy, limit: counting.limit ?? 0, remaining: counting.remaining ?? 0, reset: Number(value), windowMs: counting.windowMs };
      const limits = limitsOf.get(res) as ResponseLimits;
      if (!limits.advertised || bitesSooner(standing, limits.advertised)) this.advertise(res, standing);
    }
  }

  /** The refusing policy, on the 429: `r=0` until its block ends, whatever an earlier policy of this request advertised. */
  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const { res } = this.getRequestResponse(context);
    const policy = limitsOf.get(res)?.counting?.policy;
    if (policy) this.advertise(res, { policy, limit: detail.limit, remaining: 0, reset: detail.timeToBlockExpire, windowMs: detail.ttl });
    return super.throwThrottlingException(context, detail);
  }

  protected override async getErrorMessage(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<string> {
    const message = await super.getErrorMessage(context, detail);
    const policy = limitsOf.get(this.getRequestResponse(context).res)?.counting?.policy;
    return policy ? `${message} Policy "${policy}": ${detail.limit} requests per ${Math.ceil(detail.ttl / 1000)} s.` : message;
  }

  private advertise(res: Record<string, unknown>, standing: PolicyStanding): void {
    const limits = limitsOf.get(res) ?? {};
    limits.advertised = standing;
    limitsOf.set(res, limits);
    const window = standing.windowMs === undefined ? '' : `;w=${Math.ceil(standing.windowMs / 1000)}`;
    super.setResponseHeader(res, 'RateLimit-Policy', `"${standing.policy}";q=${standing.limit}${window}`);
    super.setResponseHeader(res, 'RateLimit', `"${standing.policy}";r=${standing.remaining};t=${standing.reset}`);
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const caller = req['caller'] as { tenantId?: string; subject?: string } | undefined;
    if (caller?.subject) return `caller:${caller.tenantId ?? ''}:${caller.subject}`;
    return `ip:${String(req['ip'] ?? 'unknown')}`;
  }
}
