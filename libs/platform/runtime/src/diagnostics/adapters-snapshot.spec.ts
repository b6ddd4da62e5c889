import { Module } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { InMemoryKeyValueCache, KeyValueCache } from '@lp/platform/cache';
import { buildAdaptersSnapshot } from './adapters-snapshot';
import { RuntimeLicenseProvider } from './runtime-license';

abstract class TicketStore {}
class NullTicketStore extends TicketStore {}
abstract class ChatHub {}
class SignalRChatHub extends ChatHub {}

@Module({
  providers: [
    { provide: KeyValueCache, useFactory: () => new InMemoryKeyValueCache({}) },
    { provide: TicketStore, useClass: NullTicketStore },
    { provide: ChatHub, useClass: SignalRChatHub },
  ],
})
class AdaptersAppModule {}

class FixedLicense extends RuntimeLicenseProvider {
  status() {
    return { state: 'GracePeriod' as const, reason: 'expired yesterday; grace of 7 days' };
  }
}

describe('buildAdaptersSnapshot', () => {
  it('classifies declared ports by name, lists unlisted ports as discovered, and absent ones as Unavailable', async () => {
    const app = await NestFactory.createApplicationContext(AdaptersAppModule, { logger: false });
    const { adapters } = buildAdaptersSnapshot({
      container: app.get(ModulesContainer),
      env: {},
      servicePorts: [{ port: ChatHub, chosenBy: () => 'CHAT_HUB_URL set' }],
    });
    await app.close();
    const byPort = new Map(adapters.map((a) => [a.port, a]));
    expect(byPort.get('KeyValueCache')).toEqual({
      port: 'KeyValueCache',
      layer: 'platform',
      implementation: 'InMemoryKeyValueCache',
      status: 'Default',
      classifiedBy: 'name-prefix',
      reason: 'REDIS_URL unset: in-process LRU',
    });
    expect(byPort.get('RpcClient')).toMatchObject({ implementation: null, status: 'Unavailable', classifiedBy: 'absent' });
    expect(byPort.get('RuntimeLicenseProvider')).toMatchObject({ implementation: null, status: 'Unavailable', classifiedBy: 'absent' });
    expect(byPort.get('ChatHub')).toMatchObject({ layer: 'service', implementation: 'SignalRChatHub', status: 'Production', reason: 'CHAT_HUB_URL set' });
    expect(byPort.get('TicketStore')).toMatchObject({
      layer: 'discovered',
      implementation: 'NullTicketStore',
      status: 'Default',
      reason: 'provided by AdaptersAppModule',
    });
    // Framework tokens resolved to Nest's internal subclasses are not adapters.
    expect(adapters.filter((a) => a.layer === 'discovered').map((a) => a.port)).toEqual(['TicketStore']);
  });

  it('the license provider reports its own state, not one derived from its name', async () => {
    const app = await NestFactory.createApplicationContext(AdaptersAppModule, { logger: false });
    const { adapters } = buildAdaptersSnapshot({ container: app.get(ModulesContainer), env: {}, license: new FixedLicense() });
    await app.close();
    expect(adapters.find((a) => a.port === 'RuntimeLicenseProvider')).toMatchObject({
      implementation: 'FixedLicense',
      status: 'GracePeriod',
      classifiedBy: 'self-reported',
    });
  });
});
