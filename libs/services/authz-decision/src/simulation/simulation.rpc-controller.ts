import { MessagePattern, Payload } from '@nestjs/microservices';
import { RpcPatterns, SimulateReplayRequest, SimulateRequest, SimulationMessage, ValidationError } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { RpcController } from '@lp/platform/messaging';
import { validatePolicyOverlay } from './policy-overlay.validator';
import { PolicySimulator } from './policy-simulator';

function tenantOf(message: SimulationMessage<unknown> | undefined): string {
  const tenantId = message?.caller?.tenantId;
  if (typeof tenantId !== 'string' || tenantId.trim() === '') throw new ValidationError({ caller: ['the trusted caller (with its tenant) is required'] });
  return tenantId;
}

/**
 * What-if decisions for policy-management's permission-simulation routes, which check the caller's
 * permission before asking. The tenant comes from the caller in the message, never the payload.
 */
@RpcController()
export class SimulationRpcController {
  constructor(private readonly simulator: PolicySimulator) {}

  @MessagePattern(RpcPatterns.authz.simulate)
  @SkipAuthorization('called by policy-management, whose permission-simulation routes are guarded')
  simulate(@Payload() message: SimulationMessage<SimulateRequest>) {
    const tenantId = tenantOf(message);
    const payload = message.payload ?? ({} as SimulateRequest);
    return this.simulator.simulate(tenantId, payload.subject, payload.request, validatePolicyOverlay(payload.overlay));
  }

  @MessagePattern(RpcPatterns.authz.simulateReplay)
  @SkipAuthorization('called by policy-management, whose permission-simulation routes are guarded')
  replay(@Payload() message: SimulationMessage<SimulateReplayRequest>) {
    const tenantId = tenantOf(message);
    const payload = message.payload ?? {};
    return this.simulator.replay(tenantId, { ...payload, overlay: validatePolicyOverlay(payload.overlay) });
  }
}
