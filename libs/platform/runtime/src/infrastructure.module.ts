import { DynamicModule, Module, OnApplicationShutdown } from '@nestjs/common';
import { CustomStrategy } from '@nestjs/microservices';
import { CacheAdapters, createCacheAdapters, KeyValueCache, RevisionCounters } from '@lp/platform/cache';
import { MessagingModule, rpcMicroserviceOptions } from '@lp/platform/messaging';
import { PlatformRuntime } from './platform-runtime';
import { ServiceDefinition } from './service-definition';

const CACHE_ADAPTERS = Symbol('CACHE_ADAPTERS');

class CacheAdaptersLifecycle implements OnApplicationShutdown {
  constructor(private readonly adapters: CacheAdapters) {}
  onApplicationShutdown(): Promise<void> {
    return this.adapters.close();
  }
}

/**
 * The adapters of the runtime profile for one service: RPC client, event bus, outbox writer and
 * relay (MessagingModule), key-value cache and revision counters. Global, so feature modules inject
 * the ports (`RpcClient`, `EventBus`, `OutboxWriter`, `KeyValueCache`, `RevisionCounters`) and never
 * know which adapter they got.
 */
@Module({})
export class InfrastructureModule {
  static forRoot(service: ServiceDefinition, runtime: PlatformRuntime): DynamicModule {
    return {
      module: InfrastructureModule,
      global: true,
      imports: [
        MessagingModule.forRoot({
          profile: runtime.messaging,
          service: service.name,
          rpc: { defaultTimeoutMs: runtime.config.RPC_TIMEOUT_MS },
          outboxRelay: true,
        }),
      ],
      providers: [
        {
          provide: CACHE_ADAPTERS,
          useFactory: () =>
            createCacheAdapters({
              redisUrl: runtime.cache.redisUrl,
              keyPrefix: serviceKeyPrefix(service, runtime),
              commandTimeoutMs: runtime.config.REDIS_COMMAND_TIMEOUT_MS,
            }),
        },
        { provide: KeyValueCache, inject: [CACHE_ADAPTERS], useFactory: (a: CacheAdapters) => a.cache },
        { provide: RevisionCounters, inject: [CACHE_ADAPTERS], useFactory: (a: CacheAdapters) => a.revisions },
        { provide: CacheAdaptersLifecycle, inject: [CACHE_ADAPTERS], useFactory: (a: CacheAdapters) => new CacheAdaptersLifecycle(a) },
      ],
      exports: [KeyValueCache, RevisionCounters],
    };
  }
}

/** Where one service's Redis keys live: REDIS_KEY_PREFIX, then the service name. */
export function serviceKeyPrefix(service: ServiceDefinition, runtime: PlatformRuntime): string {
  return `${runtime.cache.keyPrefix}${service.name}`;
}

/** The service's RPC server on the profile's transport: its queue `{prefix}{service}.rpc`. */
export function rpcServerOptions(service: ServiceDefinition, runtime: PlatformRuntime): CustomStrategy {
  return rpcMicroserviceOptions(runtime.messaging, service.name);
}
