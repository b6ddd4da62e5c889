import { Injectable } from '@nestjs/common';
import { AuthzRpc, SimulatedDecision, SimulateReplayRequest, SimulateReplayResult, SimulateRequest, TrustedCaller, ValidationError } from '@lp/contracts';
import { RpcClient } from '@lp/platform/messaging';
import { EvaluateSimulationDto, ReplaySimulationDto } from './dto/simulation.dto';

/** A replay decides up to 1,000 times; give it longer than an ordinary call. */
const REPLAY_TIMEOUT_MS = 30_000;

/**
 * What-if questions for authz-decision, which owns the engine (policy-management may not import it).
 * The caller travels with each message and its tenant is the only one the simulation reads.
 */
@Injectable()
export class PermissionSimulationService {
  constructor(private readonly rpc: RpcClient) {}

  evaluate(caller: TrustedCaller, body: EvaluateSimulationDto): Promise<SimulatedDecision> {
    const payload: SimulateRequest = {
      subject: body.subject,
      callerKind: body.callerKind,
      clientId: body.clientId,
      scopes: body.scopes,
      actor: body.actor,
      grantId: body.grantId,
      request: { resource: { ...body.request.resource }, action: body.request.action },
      overlay: body.overlay ?? {},
    };
    return this.rpc.call(AuthzRpc.simulate, { caller, payload: plain(payload) });
  }

  replay(caller: TrustedCaller, body: ReplaySimulationDto): Promise<SimulateReplayResult> {
    if (body.from !== undefined && body.to !== undefined && new Date(body.from) > new Date(body.to)) {
      throw new ValidationError({ to: ['must not be before from'] });
    }
    const payload: SimulateReplayRequest = { overlay: body.overlay ?? {}, sample: body.sample, from: body.from, to: body.to };
    return this.rpc.call(AuthzRpc.simulateReplay, { caller, payload: plain(payload) }, { timeoutMs: REPLAY_TIMEOUT_MS });
  }
}

/** DTO instances to plain JSON, without the undefined keys the RPC validator would see as present. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
