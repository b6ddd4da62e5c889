import { Module } from '@nestjs/common';

/** Wires webhook-dispatcher: each folder owns its module. */
@Module({ imports: [] })
export class WebhookDispatcherModule {}
