import { MessagePattern, Payload } from '@nestjs/microservices';
import { EventEnvelope, InvalidateRequest, RpcPatterns, TrustedCaller, ValidationError } from '@lp/contracts';
import { SkipAuthorization } from '@lp/authz-guard';
import { RpcController } from '@lp/platform/messaging';
import { InvalidationResult, PolicyInvalidation } from '../cache';

export interface InvalidateMessage {
  caller: TrustedCaller;
  payload: InvalidateRequest;
}

const MAX_EVENTS = 100;

/**
 * policy-management calls this right after a change commits, so the very next decision sees it
 * (spec §8: assignment and revocation invalidate the target's decisions immediately) instead of
 * waiting for the outbox relay and the broker. The same envelopes still travel as integration events
 * and reach every instance; a bump applied twice only costs a cache miss.
 */
@RpcController()
export class PolicyInvalidationRpcController {
  constructor(private readonly invalidation: PolicyInvalidation) {}

  @MessagePattern(RpcPatterns.authz.invalidate)
  @SkipAuthorization('only moves revision counters forward: the most a caller can cause is cache misses, never a permit')
  async invalidate(@Payload() message: InvalidateMessage): Promise<InvalidationResult[]> {
    const events = message?.payload?.events;
    if (!Array.isArray(events) || events.length === 0 || events.length > MAX_EVENTS) {
      throw new ValidationError({ events: [`1 to ${MAX_EVENTS} event envelopes are required`] });
    }
    const invalid = events.findIndex((e: Partial<EventEnvelope>) => typeof e?.eventType !== 'string' || !e.eventType.startsWith('authorization.'));
    if (invalid >= 0) throw new ValidationError({ [`events[${invalid}]`]: ['an authorization.* event envelope is required'] });
    const results: InvalidationResult[] = [];
    for (const envelope of events) results.push(await this.invalidation.handle(envelope));
    return results;
  }
}
