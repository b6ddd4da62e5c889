import { Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { AuthzRpc, FeatureStatusReply, ReceivedOf } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { SqlPolicyFactsReader } from '../policy-facts';

/**
 * `authz.feature.status`: whether a feature is on for the caller's own tenant (the tenant override,
 * else the global default), read from `authz` on every call. The MCP gateway asks it for
 * `mcp.access` on every request, so turning the feature off refuses the very next request; an
 * entry in a cache would need its own invalidation for a read that costs one indexed query.
 */
@RpcController()
export class FeatureStatusRpcController {
  private readonly facts: SqlPolicyFactsReader;

  constructor(dataSource: DataSource) {
    this.facts = new SqlPolicyFactsReader(dataSource);
  }

  @RpcHandler(AuthzRpc.featureStatus)
  @SkipAuthorization("answers about the caller's own tenant; the disabled features are in its /me/permissions too")
  async status(@Payload() message: ReceivedOf<typeof AuthzRpc.featureStatus>): Promise<FeatureStatusReply> {
    const { tenantId } = message.caller;
    const { featureCode } = message.payload;
    const enabled = await this.facts.featureEnabled(tenantId, featureCode);
    return { tenantId, featureCode, enabled: enabled === true, defined: enabled !== undefined };
  }
}
