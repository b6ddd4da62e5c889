import { MessagePattern, Payload } from '@nestjs/microservices';
import { DecisionReply, DecisionRequest, RpcPatterns, ValidationError } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { RpcController } from '@lp/platform/messaging';
import { decisionReplyOf } from './decision-reply';
import { DecisionService } from './decision.service';

export const MAX_RPC_DECISION_BATCH = 100;

/**
 * The decision plane's RPC surface. These handlers are what every guard calls, so they cannot be
 * guarded by a decision themselves; the broker is internal and the caller in each request is the
 * one the calling service authenticated.
 */
@RpcController()
export class DecisionRpcController {
  constructor(private readonly decisions: DecisionService) {}

  @MessagePattern(RpcPatterns.authz.decide)
  @SkipAuthorization('the decision plane itself: every guard calls it')
  async decide(@Payload() request: DecisionRequest): Promise<DecisionReply> {
    return decisionReplyOf(await this.decisions.decide(request), request?.withReasons === true);
  }

  @MessagePattern(RpcPatterns.authz.decideBatch)
  @SkipAuthorization('the decision plane itself: every guard calls it')
  async decideBatch(@Payload() requests: DecisionRequest[]): Promise<DecisionReply[]> {
    if (!Array.isArray(requests) || requests.length === 0 || requests.length > MAX_RPC_DECISION_BATCH) {
      throw new ValidationError({ requests: [`a batch holds 1 to ${MAX_RPC_DECISION_BATCH} requests`] });
    }
    const results = await this.decisions.decideBatch(requests);
    return results.map((result, i) => decisionReplyOf(result, requests[i]?.withReasons === true));
  }

  @MessagePattern(RpcPatterns.authz.explain)
  @SkipAuthorization('the decision plane itself; callers guard their own explain routes')
  explain(@Payload() request: DecisionRequest) {
    return this.decisions.explain(request);
  }
}
