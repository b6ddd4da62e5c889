import { Module } from '@nestjs/common';
import { TransportModule } from './transport/transport.module';

/** Wires webhook-dispatcher: each folder owns its module. */
@Module({ imports: [TransportModule] })
export class WebhookDispatcherModule {}
