import { Module } from '@nestjs/common';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { EventTypesModule } from './event-types/event-types.module';
import { IntakeModule } from './intake/intake.module';
import { DeliveryRetentionModule } from './retention/delivery-retention.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { TransportModule } from './transport/transport.module';

/** Wires webhook-dispatcher: each folder owns its module. */
@Module({ imports: [TransportModule, SubscriptionsModule, DeliveriesModule, IntakeModule, DeliveryRetentionModule, EventTypesModule] })
export class WebhookDispatcherModule {}
