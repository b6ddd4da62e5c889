import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerLimitDetail, ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import { ProblemCodes, type TrustedCaller } from '@lp/contracts';
import { UserPolicyThrottlerGuard } from '@lp/platform/http';
import { CorrelationContext } from '@lp/platform/observability';
import { ToolCallAudit } from '../audit/tool-call-audit';
import { McpToolRegistry } from '../tools/mcp-tool-registry';

export const MCP_CALLER_POLICY = 'mcpCaller';
export const MCP_TENANT_POLICY = 'mcpTenant';

export interface McpRateLimits {
  callerLimit: number;
  tenantLimit: number;
  windowMs: number;
}

function callerOf(req: Record<string, unknown>): TrustedCaller | undefined {
  return req['caller'] as TrustedCaller | undefined;
}

/**
 * The two /mcp limits, per caller (tenant + subject) and per tenant (all its callers together), on
 * every request to /mcp: tools/list and initialize count too, since each costs the tenant's
 * `mcp.access` check and tools/list a batch decision. Counted in the platform's throttler storage
 * (Redis in production, so across replicas; in memory embedded). Runs after authentication, so the
 * caller is the token's. Headers and the 429 are the platform's (`RateLimit`, `Retry-After`,
 * problem+json `RateLimited`); a refused tools/call is audited `rate_limited`.
 */
export function mcpThrottlerOptions(limits: McpRateLimits): ThrottlerModuleOptions {
  return {
    throttlers: [
      {
        name: MCP_CALLER_POLICY,
        limit: limits.callerLimit,
        ttl: limits.windowMs,
        getTracker: (req) => `caller:${callerOf(req)?.tenantId ?? ''}:${callerOf(req)?.subject ?? ''}`,
      },
      { name: MCP_TENANT_POLICY, limit: limits.tenantLimit, ttl: limits.windowMs, getTracker: (req) => `tenant:${callerOf(req)?.tenantId ?? ''}` },
    ],
    // One counter per caller (tenant) for the whole endpoint, not one per handler as the library's default key.
    generateKey: (_context, tracker, name) => `mcp:${name}:${tracker}`,
    errorMessage: 'Too many MCP requests for this caller or tenant; retry after the window resets.',
  };
}

/** The options of `McpThrottlerGuard` (from the service's configuration: `mcpThrottlerOptions`). */
export const MCP_THROTTLER_OPTIONS = Symbol('MCP_THROTTLER_OPTIONS');

@Injectable()
export class McpThrottlerGuard extends UserPolicyThrottlerGuard {
  // Nest builds a guard named in @UseGuards itself, from these injection tokens.
  constructor(
    @Inject(MCP_THROTTLER_OPTIONS) options: ThrottlerModuleOptions,
    @Inject(ThrottlerStorage) storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly audit: ToolCallAudit,
    private readonly registry: McpToolRegistry,
  ) {
    super(options, storage, reflector);
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const req = context.switchToHttp().getRequest<{ caller?: TrustedCaller; body?: unknown }>();
    const tool = toolCallName(req.body);
    if (req.caller && tool !== undefined) {
      this.audit.record({
        caller: req.caller,
        tool,
        toolKnown: this.registry.find(tool) !== undefined,
        outcome: 'rate_limited',
        errorCode: ProblemCodes.rateLimited,
        latencyMs: 0,
        correlationId: CorrelationContext.current(),
      });
    }
    return super.throwThrottlingException(context, detail);
  }
}

/** The tool name of a single JSON-RPC tools/call message, else undefined. */
export function toolCallName(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; params?: { name?: unknown } };
  return message.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name : undefined;
}
