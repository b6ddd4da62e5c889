import { DynamicModule, Module } from '@nestjs/common';
import type { AuthorizationPort } from '@lp/platform/runtime';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { AuthorizeGuard } from './authorize.guard';
import { Authorize } from './authorize.decorator';
import { AUTHORIZE_GUARD_OPTIONS, AuthorizeGuardOptions, DecisionClient } from './decision-client';
import { FeatureGate } from './feature-gate';
import { PermissionCheck } from './permission-check';
import { PermissionCollector } from './permission-collector';

/**
 * Registers the authorization guard for every route and RPC handler of the app. Import it after the
 * authentication module so the caller is established before the decision is asked for. Handlers
 * that need a further permission inject `PermissionCheck`; a service gating its operations on a
 * tenant feature injects `FeatureGate`.
 */
@Module({})
export class AuthzGuardModule {
  static forRoot(options: AuthorizeGuardOptions): DynamicModule {
    return {
      module: AuthzGuardModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [
        { provide: AUTHORIZE_GUARD_OPTIONS, useValue: options },
        DecisionClient,
        AuthorizeGuard,
        { provide: APP_GUARD, useExisting: AuthorizeGuard },
        PermissionCollector,
        PermissionCheck,
        FeatureGate,
      ],
      // AuthorizeGuard too: the runtime hands the same instance to the RPC server's own guards.
      exports: [AuthorizeGuard, PermissionCollector, PermissionCheck, DecisionClient, FeatureGate],
    };
  }
}

/** The guard as every service definition hands it to the runtime (see `AuthorizationPort`). */
export const authzGuard: AuthorizationPort = {
  module: (options) => AuthzGuardModule.forRoot(options),
  guard: AuthorizeGuard,
  authorize: (requirement) => Authorize(requirement),
};
