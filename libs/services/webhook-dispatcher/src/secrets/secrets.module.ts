import { Module } from '@nestjs/common';
import { ConfigModule } from '@lp/platform/config';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { WebhookDispatcherConfig, webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { loadSecretKeyRing } from './secret-key-source';
import { SecretVault } from './secret-vault';

/** The vault of subscription signing secrets; its keys are checked when the service boots. */
@Module({
  imports: [ConfigModule.forRoot(webhookDispatcherConfig)],
  providers: [
    {
      provide: SecretVault,
      inject: [webhookDispatcherConfig.token, platformConfig.token],
      useFactory: (config: WebhookDispatcherConfig, platform: PlatformConfig) =>
        new SecretVault(
          loadSecretKeyRing({
            WEBHOOK_SECRET_KEY: config.WEBHOOK_SECRET_KEY,
            WEBHOOK_SECRET_KEYS_PREVIOUS: config.WEBHOOK_SECRET_KEYS_PREVIOUS,
            NODE_ENV: platform.NODE_ENV,
            DATA_DIR: platform.DATA_DIR,
          }),
        ),
    },
  ],
  exports: [SecretVault],
})
export class SecretsModule {}
