import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AuthorizationEventFamily } from '@lp/contracts';
import { EventBus } from '@lp/platform/messaging';
import { MenuProjectionCache } from './menu-projection.cache';

/**
 * Menu projections are per process, so every instance takes its own copy of each
 * `authorization.*` event (instance mode) and drops what it makes stale (spec §4 rule 2: menu
 * projections are synchronized across instances).
 */
@Injectable()
export class MenuInvalidationListener implements OnApplicationBootstrap {
  private readonly logger = new Logger(MenuInvalidationListener.name);

  constructor(
    private readonly bus: EventBus,
    private readonly cache: MenuProjectionCache,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribeTo(AuthorizationEventFamily, { mode: 'instance', consumer: 'policy-management-menu' }, async ({ envelope }) => {
      const plan = this.cache.forget(envelope.eventType, envelope.payload, envelope.tenantId);
      if (plan) this.logger.debug(`${envelope.eventType} ${envelope.eventId}: menu projections dropped (correlationId ${envelope.correlationId})`);
    });
  }
}
