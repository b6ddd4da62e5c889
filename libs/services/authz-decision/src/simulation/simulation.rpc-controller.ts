import { Payload } from '@nestjs/microservices';
import { AuthzRpc, ReceivedOf, SimulateReplayRequest, SimulateRequest } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { validatePolicyOverlay } from './policy-overlay.validator';
import { PolicySimulator } from './policy-simulator';

/**
 * What-if decisions for policy-management's permission-simulation routes, which check the caller's
 * permission before asking. The tenant comes from the caller in the message, never the payload; the
 * overlay is checked against the tenant's facts here (`validatePolicyOverlay`), its shape by the contract.
 */
@RpcController()
export class SimulationRpcController {
  constructor(private readonly simulator: PolicySimulator) {}

  @RpcHandler(AuthzRpc.simulate)
  @SkipAuthorization('called by policy-management, whose permission-simulation routes are guarded')
  simulate(@Payload() { caller, payload }: ReceivedOf<typeof AuthzRpc.simulate>) {
    const request = payload as SimulateRequest;
    const { callerKind, clientId, scopes, actor, grantId } = request;
    return this.simulator.simulate(caller.tenantId, request.subject, request.request, validatePolicyOverlay(request.overlay), {
      callerKind,
      clientId,
      scopes,
      actor,
      grantId,
    });
  }

  @RpcHandler(AuthzRpc.simulateReplay)
  @SkipAuthorization('called by policy-management, whose permission-simulation routes are guarded')
  replay(@Payload() { caller, payload }: ReceivedOf<typeof AuthzRpc.simulateReplay>) {
    const request = payload as SimulateReplayRequest;
    return this.simulator.replay(caller.tenantId, { ...request, overlay: validatePolicyOverlay(request.overlay) });
  }
}
