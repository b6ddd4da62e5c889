import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { AuthenticationError, AuthorizationDeniedError, DomainError, TrustedCaller, trustedCallerSchema } from '@lp/contracts';
import { IS_PUBLIC_KEY } from '@lp/platform/auth';
import { AUTHORIZE_METADATA, AuthorizeOptions, SKIP_AUTHORIZATION_METADATA } from './authorize.decorator';
import { AuthorizedRequest, AuthorizedRpcMessage } from './authorization-context';
import { DecisionClient } from './decision-client';
import { ResourceFacts, ResourceFactsInput, ResourceFactsLoader } from './resource-facts-loader';

/**
 * The decision path of ARCHITECTURE.md: builds the decision request from the trusted caller, the
 * trusted tenant, server-side facts and the declared action, and asks authz-decision over RPC.
 * Anything but an explicit Permit keeps the handler from running, so no transaction starts: a
 * Deny or NoMatchingPolicy is a 403 `Authorization.Denied`; no decision at all (timeout, transport
 * error, a decision that failed closed, a loader failure) is a 503 `Authorization.Unavailable`
 * with `Retry-After`, so clients can tell an outage from a denial (see DecisionOutcomeReader).
 * A route that declares neither `@Authorize` nor `@Public`/`@SkipAuthorization` is denied too, so
 * a forgotten declaration cannot open a route.
 */
@Injectable()
export class AuthorizeGuard implements CanActivate {
  private readonly logger = new Logger(AuthorizeGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
    private readonly decisions: DecisionClient,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const declaration = this.reflector.getAllAndOverride<AuthorizeOptions | undefined>(AUTHORIZE_METADATA, targets);
    if (!declaration) {
      if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
      if (this.reflector.getAllAndOverride<string>(SKIP_AUTHORIZATION_METADATA, targets)) return true;
      this.logger.error(`${context.getClass().name}.${context.getHandler().name} has no @Authorize declaration; denied`);
      throw new AuthorizationDeniedError();
    }

    const { caller, input, attach } = this.extract(context);
    if (!caller) throw new AuthenticationError();

    let facts: ResourceFacts = {};
    try {
      if (declaration.facts) {
        const loader = this.moduleRef.get<ResourceFactsLoader>(declaration.facts, { strict: false });
        facts = await loader.load(input);
      }
    } catch (error) {
      // A loader's own answer about the resource (404 for an id that is not there, a 4xx of its
      // validation) is the answer; anything else means the facts could not be read.
      if (error instanceof DomainError && error.status < 500) throw error;
      if (error instanceof Error && 'status' in error && (error as { status: number }).status === 404) throw error;
      throw this.decisions.factsFailed(error);
    }

    const result = await this.decisions.require({
      caller,
      action: declaration.action,
      resource: { ...facts, module: declaration.module, resourceType: declaration.resource },
    });
    attach({ decision: result, dataScope: result.dataScope });
    return true;
  }

  private extract(context: ExecutionContext): {
    caller?: TrustedCaller;
    input: ResourceFactsInput;
    attach: (a: AuthorizedRequest['authorization']) => void;
  } {
    if (context.getType() === 'rpc') {
      const data = context.switchToRpc().getData<AuthorizedRpcMessage & AuthorizedRequest>();
      // The guard runs before the contract's schema: a message whose caller is not a well-formed
      // trusted caller is unauthenticated (401), never a question for the decision service.
      const caller = trustedCallerSchema.safeParse(data?.caller).success ? data.caller : undefined;
      return {
        caller,
        input: { caller: caller as TrustedCaller, params: {}, query: {}, payload: data?.payload },
        attach: (a) => {
          data.authorization = a;
        },
      };
    }
    const req = context.switchToHttp().getRequest<AuthorizedRequest & { params: Record<string, string>; query: Record<string, unknown> }>();
    return {
      caller: req.caller,
      input: { caller: req.caller as TrustedCaller, params: req.params ?? {}, query: req.query ?? {} },
      attach: (a) => {
        req.authorization = a;
      },
    };
  }
}
