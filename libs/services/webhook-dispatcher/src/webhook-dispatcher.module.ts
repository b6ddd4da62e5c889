import { Module } from '@nestjs/common';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { IntakeModule } from './intake/intake.module';

/** Wires webhook-dispatcher: each folder owns its module. */
@Module({ imports: [DeliveriesModule, IntakeModule] })
export class WebhookDispatcherModule {}
