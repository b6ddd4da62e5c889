import { Module } from '@nestjs/common';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';

/** Wires webhook-dispatcher: each folder owns its module. */
@Module({
  imports: [SubscriptionsModule],
})
export class WebhookDispatcherModule {}
