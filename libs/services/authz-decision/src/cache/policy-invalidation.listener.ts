import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AuthorizationEventFamily } from '@lp/contracts';
import { EventBus } from '@lp/platform/messaging';
import { PolicyInvalidation } from './policy-invalidation';

/**
 * Every running instance gets its own copy of each `authorization.*` event (instance mode: an
 * exclusive queue per instance) and bumps the revisions it names. With Redis the counters are
 * shared and a bump by one instance is enough, but the embedded LRU counters are per process, so
 * every instance applies every event; a duplicate bump only costs a cache miss.
 */
@Injectable()
export class PolicyInvalidationListener implements OnApplicationBootstrap {
  constructor(
    private readonly bus: EventBus,
    private readonly invalidation: PolicyInvalidation,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribeTo(AuthorizationEventFamily, { mode: 'instance', consumer: 'authz-decision' }, async ({ envelope }) => {
      await this.invalidation.handle(envelope);
    });
  }
}
