import { Module } from '@nestjs/common';
import { ConfigModule } from '@lp/platform/config';
import { webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { DeliveryRetention } from './delivery-retention';

/** The delivery store's retention job. */
@Module({ imports: [ConfigModule.forRoot(webhookDispatcherConfig)], providers: [DeliveryRetention] })
export class DeliveryRetentionModule {}
