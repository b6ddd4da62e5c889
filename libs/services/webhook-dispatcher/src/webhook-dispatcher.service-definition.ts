import { authzGuard } from '@lp/authz-guard';
import { FleetService } from '@lp/contracts';
import { messagingMigrations, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { defineService } from '@lp/platform/runtime';
import { CreateWebhookTables1764800000000 } from './migrations/1764800000000-CreateWebhookTables';
import { DeliveryListIndex1764800000100 } from './migrations/1764800000100-DeliveryListIndex';
import { DeliveryTraceparent1765000000100 } from './migrations/1765000000100-DeliveryTraceparent';
import { WEBHOOK_DISPATCHER_JOBS } from './retention/delivery-retention.jobs';
import { WEBHOOK_ENTITIES } from './store';
import { WebhookDispatcherModule } from './webhook-dispatcher.module';

export const WEBHOOKS_SCHEMA = 'webhooks';

/**
 * webhook-dispatcher: subscriptions under /api/webhooks, signed deliveries of the business events
 * it consumes (`ticket.*`, …, `case.*`, `workflow.*`) with durable retries, the delivery log and
 * dead letters.
 */
export const webhookDispatcherService = defineService({
  name: FleetService.webhookDispatcher,
  authorization: authzGuard,
  routePrefixes: ['/api/webhooks'],
  database: {
    schema: WEBHOOKS_SCHEMA,
    entities: [...WEBHOOK_ENTITIES, OutboxMessage, ProcessedEvent],
    migrations: [...messagingMigrations(WEBHOOKS_SCHEMA), CreateWebhookTables1764800000000, DeliveryListIndex1764800000100, DeliveryTraceparent1765000000100],
  },
  jobs: WEBHOOK_DISPATCHER_JOBS,
  modules: [WebhookDispatcherModule],
  openApi: {
    title: 'Webhook dispatcher',
    description: 'Webhook subscriptions and signed, retried deliveries of business events, with a delivery log and dead letters.',
  },
});
