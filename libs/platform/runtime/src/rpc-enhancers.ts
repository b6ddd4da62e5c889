import { CanActivate, INestApplication, INestMicroservice, Type } from '@nestjs/common';
import { createValidationPipe, ProblemDetailsFilter } from '@lp/platform/http';

/**
 * The global enhancers of a service's RPC server. It does not inherit the HTTP application's
 * (`inheritAppConfig: false`): bearer-token authentication, the userPolicy limit and the request
 * timeout belong to HTTP, and every global guard or interceptor runs (and allocates) for every
 * RPC message even when it only returns at once for a context that is not HTTP. The decision
 * service answers an RPC for every guarded request of the fleet, so that cost is paid fleet-wide.
 *
 * What applies to a message:
 * - the authorization guard (`AuthorizeGuard`), the HTTP app's instance: every RPC handler declares `@Authorize` or
 *   `@SkipAuthorization`, and an undeclared one is denied, exactly as on HTTP;
 * - the validation pipe, so DTO payloads are checked as HTTP bodies are;
 * - `ProblemDetailsFilter`, so an error escaping a handler outside an `@RpcController` still
 *   reaches the caller as a problem.
 * No interceptor: request latency per pattern and outcome is recorded by the transport itself
 * (`timedRespond`), guard refusals included.
 * Call before the RPC server registers its listeners: handlers are bound with the enhancers
 * known at that moment (see `createServiceApp`).
 */
export function applyRpcEnhancers(rpc: INestMicroservice, app: INestApplication, guard: Type<CanActivate>): void {
  rpc.useGlobalGuards(app.get(guard));
  rpc.useGlobalPipes(createValidationPipe({ reportUnder: 'payload' }));
  rpc.useGlobalFilters(new ProblemDetailsFilter());
}
