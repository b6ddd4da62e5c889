import { DynamicModule, FactoryProvider, Module, ModuleMetadata, Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { BearerTokenStrategy } from './bearer-token.strategy';
import { JwtAuthGuard } from './jwt-auth.guard';
import type { JwtVerificationOptions } from './jwt-verification-options';

export const JWT_VERIFICATION_OPTIONS = Symbol('JWT_VERIFICATION_OPTIONS');

export interface AuthModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  inject?: FactoryProvider['inject'];
  useFactory: (...deps: never[]) => JwtVerificationOptions | Promise<JwtVerificationOptions>;
}

/**
 * Bearer-token authentication for one Nest application: registers the passport-jwt strategy and
 * `JwtAuthGuard` as a global guard. Import once, in the application's root module.
 */
@Module({})
export class AuthModule {
  static forRoot(options: JwtVerificationOptions): DynamicModule {
    return AuthModule.with({ provide: JWT_VERIFICATION_OPTIONS, useValue: options });
  }

  /** For options read from the service's validated configuration. */
  static forRootAsync(options: AuthModuleAsyncOptions): DynamicModule {
    return {
      ...AuthModule.with({
        provide: JWT_VERIFICATION_OPTIONS,
        inject: options.inject ?? [],
        useFactory: options.useFactory as (...deps: unknown[]) => JwtVerificationOptions | Promise<JwtVerificationOptions>,
      }),
      imports: options.imports ?? [],
    };
  }

  private static with(optionsProvider: Provider): DynamicModule {
    return {
      module: AuthModule,
      providers: [
        optionsProvider,
        {
          provide: BearerTokenStrategy,
          inject: [JWT_VERIFICATION_OPTIONS],
          useFactory: (options: JwtVerificationOptions) => BearerTokenStrategy.create(options),
        },
        JwtAuthGuard,
        { provide: APP_GUARD, useExisting: JwtAuthGuard },
      ],
      exports: [JWT_VERIFICATION_OPTIONS, JwtAuthGuard],
    };
  }
}
