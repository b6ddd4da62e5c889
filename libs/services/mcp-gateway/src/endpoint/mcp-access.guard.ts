import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { FeatureGate } from '@lp/authz-guard';
import type { TrustedCaller } from '@lp/contracts';
import type { AuthenticatedRequest } from '@lp/platform/auth';
import { AuthenticationError } from '@lp/platform/http';
import { RpcRemoteError } from '@lp/platform/messaging';
import { McpFeatureDisabledError, McpTenantMismatchError, McpTenantRequiredError } from './mcp.errors';

export const TENANT_HEADER = 'x-tenant-id';
export const MCP_ACCESS_FEATURE = 'mcp.access';

/**
 * The tenant gate of /mcp (spec §5.2), after authentication: `X-Tenant-Id` must be present and
 * name the token's tenant (the tenant always comes from the token; the header only has to agree),
 * and the tenant's `mcp.access` feature must be on. The feature is read through the platform's
 * `FeatureGate`: asked of authz-decision once, then kept per tenant until an
 * `authorization.feature.changed` event for it reaches this instance (milliseconds after the change
 * commits). No answer is a 503 `Authorization.Unavailable`: fail closed, but told apart from "off".
 */
@Injectable()
export class McpAccessGuard implements CanActivate {
  private readonly logger = new Logger(McpAccessGuard.name);

  constructor(private readonly features: FeatureGate) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const caller = request.caller;
    if (!caller) throw new AuthenticationError();
    const header = request.headers[TENANT_HEADER];
    const tenantId = Array.isArray(header) ? undefined : header?.trim();
    if (!tenantId) throw new McpTenantRequiredError();
    if (tenantId !== caller.tenantId) throw new McpTenantMismatchError();
    if (!(await this.mcpAccessEnabled(caller))) throw new McpFeatureDisabledError();
    return true;
  }

  private async mcpAccessEnabled(caller: TrustedCaller): Promise<boolean> {
    try {
      return await this.features.isEnabled(caller, MCP_ACCESS_FEATURE);
    } catch (error) {
      // A refusal of the question itself (a 4xx of authz-decision) is not an outage, but it is no
      // "on" either: closed, with the cause in the log. An outage is FeatureGate's 503.
      if (error instanceof RpcRemoteError && error.problem.status < 500) {
        this.logger.warn(`mcp.access status refused for tenant ${caller.tenantId}: ${error.problem.code}`);
        return false;
      }
      throw error;
    }
  }
}
