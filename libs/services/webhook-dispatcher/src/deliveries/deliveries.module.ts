import { Module } from '@nestjs/common';
import { ConfigModule } from '@lp/platform/config';
import { PoliciesModule } from '../policies/policies.module';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { TransportModule } from '../transport/transport.module';
import { webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { AttemptLogWriter } from './attempt-log-writer';
import { DeadLettersController } from './dead-letters.controller';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesService } from './deliveries.service';
import { DeliveryAttemptRunner } from './delivery-attempt.runner';
import { DeliveryLogRepository } from './delivery-log.repository';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryScheduler } from './delivery-scheduler';
import { SystemWebhookClock, WebhookClock } from './webhook-clock';

/** Deliveries: the scheduler and its attempts, the delivery log, dead letters and replay, the ping. */
@Module({
  imports: [ConfigModule.forRoot(webhookDispatcherConfig), TransportModule, SubscriptionsModule, PoliciesModule],
  controllers: [DeliveriesController, DeadLettersController],
  providers: [
    { provide: WebhookClock, useClass: SystemWebhookClock },
    DeliveryRepository,
    AttemptLogWriter,
    DeliveryLogRepository,
    DeliveryAttemptRunner,
    DeliveryScheduler,
    DeliveriesService,
  ],
  exports: [WebhookClock, DeliveryRepository, DeliveryScheduler],
})
export class DeliveriesModule {}
