import { DynamicModule, Global, Inject, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, Reflector } from '@nestjs/core';
import { getDataSourceToken, getEntityManagerToken, TypeOrmModule } from '@nestjs/typeorm';
import { ThrottlerModule } from '@nestjs/throttler';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { DataSource, EntityManager } from 'typeorm';
import { AuthModule } from '@lp/platform/auth';
import { KeyValueCache } from '@lp/platform/cache';
import { ConfigModule, InjectConfig } from '@lp/platform/config';
import {
  createValidationPipe,
  ProblemDetailsFilter,
  RedisThrottlerStorage,
  RequestTimeoutInterceptor,
  userPolicyThrottlerOptions,
  UserPolicyThrottlerGuard,
} from '@lp/platform/http';
import { EventBus } from '@lp/platform/messaging';
import { CorrelationMiddleware, httpMetricsMiddleware, ReadinessCheck, requestDeadlineMiddleware } from '@lp/platform/observability';
import { initializeServiceDataSource, serviceDataSourceOptions } from '@lp/platform/persistence';
import { HealthController, READINESS_CHECKS } from './health.controller';
import { InfrastructureModule, serviceKeyPrefix } from './infrastructure.module';
import { MetricsController } from './metrics.controller';
import { PlatformConfig, platformConfig } from './platform-config';
import { PlatformRuntime } from './platform-runtime';
import { ServiceDefinition } from './service-definition';
import { platformJobs, PlatformJobsModule } from './platform-jobs';
import { ServiceJobsModule } from '@lp/platform/jobs';
import { serviceJobsRpcController } from './service-jobs.rpc-controller';
import { RuntimeDiagnosticsModule } from './diagnostics/runtime-diagnostics.module';

export const SERVICE_NAME = Symbol('SERVICE_NAME');

/** Guards that must run after authentication (global guards run in module scan order). */
@Module({})
class EdgeGuardsModule {
  static forRoot(): DynamicModule {
    return { module: EdgeGuardsModule, providers: [{ provide: APP_GUARD, useClass: UserPolicyThrottlerGuard }] };
  }
}

/**
 * The root module of one service: the platform's cross-cutting parts (logging with correlation,
 * authentication, the userPolicy limit, the authorization guard, the service's own DataSource and
 * migrations, messaging, cache, probes, metrics, problem+json errors) around the service's
 * feature modules. The import order is deliberate: it is the order the global guards run in on HTTP
 * (the RPC server has its own, see `applyRpcEnhancers`).
 */
@Module({})
export class ServiceHostModule implements NestModule {
  static forRoot(service: ServiceDefinition, runtime: PlatformRuntime): DynamicModule {
    const { config } = runtime;
    return {
      module: ServiceHostModule,
      imports: [
        // nestjs-pino keeps one root logger per process, so the label is the process, not the app.
        LoggerModule.forRoot(runtime.logging.params),
        ConfigModule.forRoot(platformConfig, config),
        ConfigModule.environment(runtime.env),
        AuthModule.forRoot(runtime.jwt),
        ThrottlerModule.forRootAsync({
          // Counted in Redis when the profile has it, so the limit holds across replicas.
          useFactory: () => ({
            ...userPolicyThrottlerOptions({ limit: config.USER_POLICY_LIMIT, ttlMs: config.USER_POLICY_WINDOW_MS }),
            ...(runtime.cache.redisUrl
              ? { storage: new RedisThrottlerStorage({ url: runtime.cache.redisUrl, keyPrefix: serviceKeyPrefix(service, runtime) }) }
              : {}),
          }),
        }),
        EdgeGuardsModule.forRoot(),
        service.authorization.module({ decisionTimeoutMs: config.AUTHZ_DECISION_TIMEOUT_MS, service: service.name }),
        // Named after the service: @nestjs/typeorm keeps one process-wide registry of data source
        // names and warned on every standalone start, where each service's app has its own.
        TypeOrmModule.forRootAsync({
          name: service.name,
          useFactory: () =>
            serviceDataSourceOptions({
              url: runtime.database.url,
              schema: service.database.schema,
              entities: service.database.entities,
              migrations: service.database.migrations,
              poolSize: runtime.database.embedded ? 4 : config.DATABASE_POOL_SIZE,
              applicationName: service.name,
            }),
          dataSourceFactory: async (options) => {
            if (!options) throw new Error('TypeORM options missing');
            return initializeServiceDataSource(new DataSource(options));
          },
        }),
        ServiceDataSourceModule.forRoot(service.name),
        InfrastructureModule.forRoot(service, runtime),
        // The platform's jobs of every service (processed events, outbox sweep), then the service's own.
        PlatformJobsModule.forService(service.name),
        ServiceJobsModule.forService(service.name, [...platformJobs(service.name), ...(service.jobs ?? [])]),
        RuntimeDiagnosticsModule.forService(service, runtime),
        TerminusModule.forRoot({ logger: false }),
        ...service.modules,
      ],
      controllers: [HealthController, MetricsController, serviceJobsRpcController(service.authorization)],
      providers: [
        { provide: SERVICE_NAME, useValue: service.name },
        {
          provide: READINESS_CHECKS,
          inject: [DataSource, EventBus, KeyValueCache],
          useFactory: (dataSource: DataSource, bus: EventBus, cache: KeyValueCache): ReadinessCheck[] => [
            { name: 'database', check: async () => void (await dataSource.query('SELECT 1')) },
            { name: 'broker', check: () => bus.ping() },
            // Serving without the cache is slower, not wrong: a cache outage degrades, it does not unready.
            { name: 'cache', check: () => cache.ping(), critical: false },
          ],
        },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        {
          provide: APP_INTERCEPTOR,
          inject: [Reflector],
          useFactory: (reflector: Reflector) =>
            new RequestTimeoutInterceptor(reflector, {
              StandardCommand: config.STANDARD_COMMAND_TIMEOUT_MS,
              WorkflowCommand: config.WORKFLOW_COMMAND_TIMEOUT_MS,
            }),
        },
      ],
    };
  }

  constructor(
    @Inject(SERVICE_NAME) private readonly service: string,
    @InjectConfig(platformConfig) private readonly config: PlatformConfig,
  ) {}

  configure(consumer: MiddlewareConsumer): void {
    // The deadline scope: its RPCs carry what is left of the request's budget (counted from its
    // arrival, queue wait for admission included).
    consumer
      .apply(CorrelationMiddleware, requestDeadlineMiddleware(this.config.STANDARD_COMMAND_TIMEOUT_MS), httpMetricsMiddleware(this.service))
      .forRoutes('*path');
  }
}

/**
 * The service's named data source under the default tokens (`DataSource`, `EntityManager`), so
 * features keep injecting `DataSource` and `TypeOrmModule.forFeature([...])` without naming it:
 * inside one service's app there is only ever one.
 */
@Global()
@Module({})
class ServiceDataSourceModule {
  static forRoot(name: string): DynamicModule {
    return {
      module: ServiceDataSourceModule,
      providers: [
        { provide: DataSource, useExisting: getDataSourceToken(name) },
        { provide: EntityManager, useExisting: getEntityManagerToken(name) },
      ],
      exports: [DataSource, EntityManager],
    };
  }
}
