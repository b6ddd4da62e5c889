import { Inject, Module, type DynamicModule } from '@nestjs/common';
import type { ConfigKeySpec } from './config-key-spec';
import type { ConfigDeclaration } from './config-declaration';
import { ConfigRegistry } from './config-registry';
import type { ConfigValues } from './config-values';

/**
 * Makes a service's loaded configuration injectable, and the process-wide `ConfigRegistry` with it
 * (the operations configuration report injects that).
 *
 *   // authz-decision.config.ts
 *   export const authzDecisionConfig = declareConfig('authz-decision', {
 *     PORT: { type: 'int', group: 'http', description: 'HTTP port', default: 3000, min: 1, max: 65535 },
 *     REDIS_URL: { type: 'url', group: 'cache', description: 'Redis; in-process LRU when unset' },
 *   });
 *   export type AuthzDecisionConfig = ConfigOf<typeof authzDecisionConfig>;
 *
 *   // main.ts: load before Nest starts, so a bad environment fails with every problem listed
 *   const config = authzDecisionConfig.load();
 *   // module
 *   imports: [ConfigModule.forRoot(authzDecisionConfig, config)]
 *   // any provider
 *   constructor(@InjectConfig(authzDecisionConfig) private readonly config: AuthzDecisionConfig) {}
 *
 * Without `values`, the module loads when Nest instantiates it, from the environment the host gave
 * (`ConfigModule.environment(env)`: the runtime's, so a test or the standalone process can start a
 * service with its own settings), else from `process.env`.
 */
@Module({})
export class ConfigModule {
  /** Makes `env` the environment every `forRoot(declaration)` without values of this app loads from. */
  static environment(env: Readonly<Record<string, string | undefined>>): DynamicModule {
    return { module: ConfigEnvironmentModule, global: true, providers: [{ provide: CONFIG_ENVIRONMENT, useValue: env }], exports: [CONFIG_ENVIRONMENT] };
  }

  static forRoot<T extends Record<string, ConfigKeySpec>>(declaration: ConfigDeclaration<T>, values?: ConfigValues<T>): DynamicModule {
    return {
      module: ConfigModule,
      // Global: every feature module of the service reads the same configuration.
      global: true,
      providers: [
        values
          ? { provide: declaration.token, useValue: values }
          : {
              provide: declaration.token,
              inject: [{ token: CONFIG_ENVIRONMENT, optional: true }],
              useFactory: (env?: Record<string, string | undefined>) => declaration.load(env ?? process.env),
            },
        { provide: ConfigRegistry, useValue: ConfigRegistry.global },
      ],
      exports: [declaration.token, ConfigRegistry],
    };
  }
}

/** The environment service configurations load from (see `ConfigModule.environment`). */
export const CONFIG_ENVIRONMENT = Symbol('CONFIG_ENVIRONMENT');

@Module({})
class ConfigEnvironmentModule {}

/** Parameter decorator injecting the values `ConfigModule.forRoot(declaration)` provides. */
export function InjectConfig(declaration: { readonly token: symbol }): PropertyDecorator & ParameterDecorator {
  return Inject(declaration.token);
}
