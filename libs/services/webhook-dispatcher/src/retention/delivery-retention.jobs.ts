import { FleetService } from '@lp/contracts';
import { declareJob } from '@lp/platform/jobs';
import { RETENTION_DEFAULT_CRON } from '@lp/platform/runtime';

/** webhook-dispatcher's own background work (run by operations' scheduler, exactly once across replicas). */
export const WebhookDispatcherJobs = {
  /** `webhook-dispatcher.delivery-retention` (`DeliveryRetention.run`). */
  deliveryRetention: declareJob({
    service: FleetService.webhookDispatcher,
    name: 'delivery-retention',
    description:
      'Deletes finished webhook deliveries (with their attempts and dead letters), and attempts and dead letters of deliveries still running, older than WEBHOOK_DELIVERY_RETENTION_DAYS, in batches of RETENTION_BATCH_SIZE',
    moduleName: 'DeliveryRetentionModule',
    schedule: { cron: RETENTION_DEFAULT_CRON },
  }),
} as const;

export const WEBHOOK_DISPATCHER_JOBS = Object.values(WebhookDispatcherJobs);
