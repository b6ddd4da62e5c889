import { CanActivate, ExecutionContext, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import {
  AuthenticationError,
  AuthorizationDeniedError,
  DecisionRequest,
  DecisionResult,
  RpcPatterns,
  TrustedCaller,
} from '@lp/contracts';
import { IS_PUBLIC_KEY } from '@lp/platform/auth';
import { RpcClient } from '@lp/platform/messaging';
import { CorrelationContext } from '@lp/platform/observability';
import { AUTHORIZE_METADATA, AuthorizeOptions, SKIP_AUTHORIZATION_METADATA } from './authorize.decorator';
import { AuthorizedRequest, AuthorizedRpcMessage } from './authorization-context';
import { ResourceFacts, ResourceFactsInput, ResourceFactsLoader } from './resource-facts-loader';

export const AUTHORIZE_GUARD_OPTIONS = Symbol('AUTHORIZE_GUARD_OPTIONS');
export interface AuthorizeGuardOptions {
  /** How long to wait for authz-decision before failing closed. */
  decisionTimeoutMs: number;
}

/**
 * The decision path of ARCHITECTURE.md: builds the decision request from the trusted caller, the
 * trusted tenant, server-side facts and the declared action, and asks authz-decision over RPC.
 * Anything but an explicit Permit (Deny, NoMatchingPolicy, timeout, transport error, a loader
 * failure) is a 403 `Authorization.Denied`: the handler does not run, so no transaction starts.
 * A route that declares neither `@Authorize` nor `@Public`/`@SkipAuthorization` is denied too, so
 * a forgotten declaration cannot open a route.
 */
@Injectable()
export class AuthorizeGuard implements CanActivate {
  private readonly logger = new Logger(AuthorizeGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
    private readonly rpc: RpcClient,
    @Optional() @Inject(AUTHORIZE_GUARD_OPTIONS) private readonly options: AuthorizeGuardOptions = { decisionTimeoutMs: 3_000 },
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
      if (error instanceof Error && 'status' in error && (error as { status: number }).status === 404) throw error;
      this.logger.warn({ err: error }, 'resource facts could not be loaded; failing closed');
      throw new AuthorizationDeniedError();
    }

    const request: DecisionRequest = {
      caller,
      action: declaration.action,
      resource: { ...facts, module: declaration.module, resourceType: declaration.resource },
      correlationId: CorrelationContext.current(),
    };

    let result: DecisionResult;
    try {
      result = await this.rpc.send<DecisionResult>(RpcPatterns.authz.decide, request, { timeoutMs: this.options.decisionTimeoutMs });
    } catch (error) {
      this.logger.warn({ err: error, pattern: RpcPatterns.authz.decide }, 'decision unavailable; failing closed');
      throw new AuthorizationDeniedError();
    }
    if (result?.outcome !== 'Permit' || result.permitted !== true) {
      throw new AuthorizationDeniedError();
    }
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
      const caller = data?.caller;
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
