import { Module } from '@nestjs/common';
import { ConfigModule } from '@lp/platform/config';
import { WebhookDispatcherConfig, webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { DeadLetterStore, deadLetterStoreFor } from './dead-letter-store';
import { NullSubscriberRateLimit, SubscriberRateLimit } from './subscriber-rate-limit';

/**
 * The spec's replaceable delivery policies (§1, §2): the per-subscriber rate limit (default: none)
 * and the dead-letter store (`WEBHOOK_DEAD_LETTERS`: `store` keeps them, `discard` is the spec's
 * default). The IP allowlist is checked at connect time, so it lives with the transport.
 */
@Module({
  imports: [ConfigModule.forRoot(webhookDispatcherConfig)],
  providers: [
    { provide: SubscriberRateLimit, useClass: NullSubscriberRateLimit },
    {
      provide: DeadLetterStore,
      inject: [webhookDispatcherConfig.token],
      useFactory: (config: WebhookDispatcherConfig) => deadLetterStoreFor(config.WEBHOOK_DEAD_LETTERS),
    },
  ],
  exports: [SubscriberRateLimit, DeadLetterStore],
})
export class PoliciesModule {}
