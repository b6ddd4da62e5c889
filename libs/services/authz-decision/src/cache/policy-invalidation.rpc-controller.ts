import { Payload } from '@nestjs/microservices';
import { AuthzRpc, InvalidationResult, ReceivedOf } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { RpcController, RpcHandler } from '@lp/platform/messaging';
import { PolicyInvalidation } from './policy-invalidation';

/**
 * policy-management calls this right after a change commits, so the very next decision sees it
 * (spec §8: assignment and revocation invalidate the target's decisions immediately) instead of
 * waiting for the outbox relay and the broker. The same envelopes still travel as integration events
 * and reach every instance; a bump applied twice only costs a cache miss.
 */
@RpcController()
export class PolicyInvalidationRpcController {
  constructor(private readonly invalidation: PolicyInvalidation) {}

  @RpcHandler(AuthzRpc.invalidate)
  @SkipAuthorization('only moves revision counters forward: the most a caller can cause is cache misses, never a permit')
  async invalidate(@Payload() message: ReceivedOf<typeof AuthzRpc.invalidate>): Promise<InvalidationResult[]> {
    const results: InvalidationResult[] = [];
    for (const envelope of message.payload.events) results.push(await this.invalidation.handle(envelope));
    return results;
  }
}
