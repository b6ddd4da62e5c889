import { Payload } from '@nestjs/microservices';
import { AuthorizationAction, CasesRpc, DataScope, LitigationCase, ReceivedOf } from '@lp/contracts';
import { Authorize, CurrentDataScope } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { CaseFactsLoader } from './case-facts.loader';
import { CASE_RESOURCE } from './cases.controller';
import { CasesService } from './cases.service';

/**
 * `cases.create` and `cases.get` (the MCP gateway's case tools call them as the end user): the same
 * permission, facts, validation (`createCaseSchema` in the contract) and service as the HTTP routes.
 */
@RpcController()
export class CasesRpcController {
  constructor(private readonly cases: CasesService) {}

  @RpcHandler(CasesRpc.create)
  @Authorize({ ...CASE_RESOURCE, action: AuthorizationAction.Create })
  create(@Payload() message: ReceivedOf<typeof CasesRpc.create>): Promise<LitigationCase> {
    return this.cases.create(message.caller, message.payload);
  }

  @RpcHandler(CasesRpc.get)
  @Authorize({ ...CASE_RESOURCE, action: AuthorizationAction.View, facts: CaseFactsLoader })
  get(@Payload() message: ReceivedOf<typeof CasesRpc.get>, @CurrentDataScope() scope: DataScope): Promise<LitigationCase> {
    return this.cases.get(scope, message.payload.caseId);
  }
}
