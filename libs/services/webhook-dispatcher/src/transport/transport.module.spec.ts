import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule, ConfigValidationError } from '@lp/platform/config';
import { platformConfig } from '@lp/platform/runtime';
import { DeliveryIpAllowlist, NullIpAllowlist } from '../policies/delivery-ip-allowlist';
import { HttpWebhookTransport } from './http-webhook-transport';
import { TransportModule } from './transport.module';
import { WebhookTransport } from './webhook-transport';

function compile(env: Record<string, string>) {
  @Module({ imports: [ConfigModule.environment(env), ConfigModule.forRoot(platformConfig, platformConfig.load({ NODE_ENV: 'production' })), TransportModule] })
  class HostModule {}
  return NestFactory.createApplicationContext(HostModule, { logger: false, abortOnError: false });
}

describe('TransportModule', () => {
  it('provides the HTTP transport and the allow-all IP allowlist', async () => {
    const app = await compile({ WEBHOOK_ALLOWED_NETWORKS: '10.20.0.0/16' });
    expect(app.get(WebhookTransport)).toBeInstanceOf(HttpWebhookTransport);
    expect(app.get(DeliveryIpAllowlist)).toBeInstanceOf(NullIpAllowlist);
    await app.close();
  });

  it('refuses to start with a malformed WEBHOOK_ALLOWED_NETWORKS, naming the entry', async () => {
    const failure = compile({ WEBHOOK_ALLOWED_NETWORKS: '10.20.0.0/16,10.20.0.0' });
    await expect(failure).rejects.toThrow(ConfigValidationError);
    await expect(compile({ WEBHOOK_ALLOWED_NETWORKS: 'nope' })).rejects.toThrow(/WEBHOOK_ALLOWED_NETWORKS: "nope" is not a CIDR range/);
  });
});
