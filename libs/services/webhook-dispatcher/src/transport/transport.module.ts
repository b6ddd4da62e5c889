import { Module } from '@nestjs/common';
import { ConfigModule } from '@lp/platform/config';
import { DeliveryIpAllowlist, NullIpAllowlist } from '../policies/delivery-ip-allowlist';
import { webhookDispatcherConfig } from '../webhook-dispatcher.config';
import { HttpWebhookTransport } from './http-webhook-transport';
import { WebhookTransport } from './webhook-transport';

/**
 * The outbound side of deliveries: the HTTP transport and the IP allowlist it asks (the spec's
 * default allows every address; SSRF protection applies whatever it says).
 */
@Module({
  imports: [ConfigModule.forRoot(webhookDispatcherConfig)],
  providers: [
    { provide: DeliveryIpAllowlist, useClass: NullIpAllowlist },
    { provide: WebhookTransport, useClass: HttpWebhookTransport },
  ],
  exports: [WebhookTransport, DeliveryIpAllowlist],
})
export class TransportModule {}
