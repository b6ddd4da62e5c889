import { CanActivate, DynamicModule, Type } from '@nestjs/common';
import type { MixedList } from 'typeorm';
import type { AuthorizationAction, JobDeclaration } from '@lp/contracts';

/**
 * The authorization guard as the runtime sees it. The guard library sits above the platform libs (it
 * uses them), so the runtime does not import it: each service definition hands it in.
 */
export interface AuthorizationPort {
  /** The module that registers the guard on every HTTP route and exports `guard`. */
  module(options: { decisionTimeoutMs: number; service: string }): DynamicModule;
  /** The guard class: the runtime hands the app's instance to the RPC server's own enhancers. */
  guard: Type<CanActivate>;
  /** `@Authorize` for the handlers the runtime itself adds to every service (jobs, diagnostics). */
  authorize(requirement: { module: string; resource: string; action: AuthorizationAction }): MethodDecorator;
}

/**
 * Everything the runtime needs to host one service of the fleet, alone (`apps/<service>`) or with
 * the others in one process (`apps/standalone`). Adding a service to the fleet is one definition,
 * one `main.ts` calling `runService(definition)` and one line in the fleet's list (`@lp/fleet`).
 */
export interface ServiceDefinition {
  /** Kebab-case service name; also its RPC queue `{name}.rpc` and its metrics label. */
  name: string;
  /** HTTP path prefixes this service owns; the standalone dispatches by longest prefix. */
  routePrefixes: string[];
  database: {
    /** The PostgreSQL schema the service owns. */
    schema: string;
    // TypeORM's own element types: entity and migration classes.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
    entities: MixedList<Function>;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
    migrations: MixedList<Function>;
  };
  /** Guards every route and RPC handler (`authzGuard` of `@lp/authz-guard`). */
  authorization: AuthorizationPort;
  /** The service's feature modules. */
  modules: Array<Type | DynamicModule>;
  /**
   * The service's code catalog of background jobs (specs/operations.md §1), each declared beside
   * its work (`declareJob` in a `*.jobs.ts`) and bound there (`@JobHandler`). Operations reads it
   * over RPC, seeds its definitions from it and has the service run them.
   */
  jobs?: readonly JobDeclaration[];
  /**
   * `openApiVersion` (default 3.0.0): 3.2.0 for a service with routes of the HTTP method QUERY,
   * which @nestjs/swagger leaves out of documents older than OpenAPI 3.2 (the first with `query` operations).
   */
  openApi: { title: string; description: string; openApiVersion?: '3.0.0' | '3.2.0' };
}

export function defineService(definition: ServiceDefinition): ServiceDefinition {
  if (!/^[a-z][a-z0-9-]*$/.test(definition.name)) throw new Error(`Invalid service name "${definition.name}"`);
  for (const prefix of definition.routePrefixes) {
    if (!prefix.startsWith('/') || prefix.endsWith('/')) throw new Error(`Route prefix "${prefix}" must start and not end with "/"`);
  }
  return definition;
}
