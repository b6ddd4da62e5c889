import { DynamicModule, Module, Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventBus } from './events/event-bus';
import { createEventBus, createRpcClient, EventBusSettings, RpcClientSettings } from './messaging-factories';
import { MessagingProfile } from './messaging-profile';
import { OutboxRelay, OutboxRelayOptions } from './outbox/outbox-relay';
import { OutboxWriter } from './outbox/outbox-writer';
import { RpcClient } from './rpc/rpc-client';

export interface MessagingModuleOptions {
  profile: MessagingProfile;
  /** The hosting service: names its broker connection and labels its outbox metrics. */
  service: string;
  rpc?: RpcClientSettings;
  events?: EventBusSettings;
  /**
   * Provides an OutboxRelay over the app's TypeORM DataSource (from TypeOrmModule), started when the
   * app boots and stopped before the bus closes.
   */
  outboxRelay?: boolean | Omit<OutboxRelayOptions, 'service'>;
}

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');

/**
 * RpcClient, EventBus and OutboxWriter (and optionally the OutboxRelay) for one service app, on the
 * adapters of its runtime profile. Global, because every feature module publishes or calls.
 * RpcClient and EventBus close themselves on application shutdown; the relay stops before that.
 */
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: MESSAGING_OPTIONS, useValue: options },
      { provide: RpcClient, useFactory: () => createRpcClient(options.profile, options.rpc) },
      { provide: EventBus, useFactory: () => createEventBus(options.profile, { connectionName: options.service, ...options.events }) },
      OutboxWriter,
    ];
    if (options.outboxRelay) {
      const relayOptions = typeof options.outboxRelay === 'object' ? options.outboxRelay : {};
      providers.push({
        provide: OutboxRelay,
        inject: [DataSource, EventBus],
        useFactory: (dataSource: DataSource, bus: EventBus) => new OutboxRelay(dataSource, bus, { ...relayOptions, service: options.service }),
      });
    }
    return {
      module: MessagingModule,
      global: true,
      providers,
      exports: [MESSAGING_OPTIONS, RpcClient, EventBus, OutboxWriter, ...(options.outboxRelay ? [OutboxRelay] : [])],
    };
  }
}
