import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigModule } from '@lp/platform/config';
import { SecretsModule } from '../secrets/secrets.module';
import { VaultSubscriptionSecrets } from '../secrets/vault-subscription-secrets';
import { WebhookSubscriptionEntity } from '../store';
import { webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { SubscriptionSecrets } from './subscription-secrets';
import { CreateSubscriptionPipe, UpdateSubscriptionPipe } from './subscription-body.pipes';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsRpcController } from './subscriptions.rpc-controller';
import { SubscriptionsService } from './subscriptions.service';

/**
 * Webhook subscriptions: the routes, the RPC list, and for the rest of the service the row reader
 * (`SubscriptionsRepository.findInTenant`) and the signing secrets (`SubscriptionSecrets`).
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookSubscriptionEntity]), ConfigModule.forRoot(webhookDispatcherConfig), SecretsModule],
  controllers: [SubscriptionsController, SubscriptionsRpcController],
  providers: [
    SubscriptionsService,
    SubscriptionsRepository,
    CreateSubscriptionPipe,
    UpdateSubscriptionPipe,
    { provide: SubscriptionSecrets, useClass: VaultSubscriptionSecrets },
  ],
  exports: [SubscriptionSecrets, SubscriptionsRepository],
})
export class SubscriptionsModule {}
