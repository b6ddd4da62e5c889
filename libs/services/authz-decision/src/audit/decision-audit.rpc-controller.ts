import { Payload } from '@nestjs/microservices';
import { AuthzRpc, ReceivedOf } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { DecisionAuditQuery } from './decision-audit-query';

/**
 * Decision audit for policy-management's permission-audit routes, which check the caller's
 * permission before asking. The tenant always comes from the caller in the message.
 */
@RpcController()
export class DecisionAuditRpcController {
  constructor(private readonly audit: DecisionAuditQuery) {}

  @RpcHandler(AuthzRpc.queryAudit)
  @SkipAuthorization('queried by policy-management, whose permission-audit routes are guarded')
  query(@Payload() { caller, payload }: ReceivedOf<typeof AuthzRpc.queryAudit>) {
    return this.audit.query({ tenantId: caller.tenantId, ...payload });
  }
}
