import { AuthzRpc, DecisionReply, ValidDecisionRequest } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { Payload } from '@nestjs/microservices';
import { decisionReplyOf } from './decision-reply';
import { DecisionService } from './decision.service';

/**
 * The decision plane's RPC surface. These handlers are what every guard calls, so they cannot be
 * guarded by a decision themselves; the broker is internal and the caller in each request is the
 * one the calling service authenticated. Each message arrives validated and normalized by its
 * contract (`AuthzRpc`).
 */
@RpcController()
export class DecisionRpcController {
  constructor(private readonly decisions: DecisionService) {}

  @RpcHandler(AuthzRpc.decide)
  @SkipAuthorization('the decision plane itself: every guard calls it')
  async decide(@Payload() request: ValidDecisionRequest): Promise<DecisionReply> {
    return decisionReplyOf(await this.decisions.decide(request), request.withReasons === true);
  }

  @RpcHandler(AuthzRpc.decideBatch)
  @SkipAuthorization('the decision plane itself: every guard calls it')
  async decideBatch(@Payload() requests: ValidDecisionRequest[]): Promise<DecisionReply[]> {
    const results = await this.decisions.decideBatch(requests);
    return results.map((result, i) => decisionReplyOf(result, requests[i]?.withReasons === true));
  }

  @RpcHandler(AuthzRpc.explain)
  @SkipAuthorization('the decision plane itself; callers guard their own explain routes')
  explain(@Payload() request: ValidDecisionRequest) {
    return this.decisions.explain(request);
  }
}
