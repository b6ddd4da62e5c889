import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { DeliveryFanOut } from './delivery-fan-out';
import { EventIntakeListener } from './event-intake.listener';
import { EventsController } from './events.controller';

/** Events in: the durable queue on `integration.events` and the ingest route, both fanned out to deliveries. */
@Module({
  imports: [DeliveriesModule],
  controllers: [EventsController],
  providers: [DeliveryFanOut, EventIntakeListener],
})
export class IntakeModule {}
