import { CanActivate, ExecutionContext, Injectable, Logger, Type } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { AuthenticationError, type TrustedCaller } from '@lp/contracts';
import type { Response } from 'express';
import passport from 'passport';
import { authenticationFailure, IdentityProviderUnavailableError } from './auth.errors';
import { BEARER_CHALLENGE_KEY, BearerChallengeParameters, formatBearerChallenge } from './bearer-challenge';
import type { AuthenticatedRequest } from './authenticated-request';
import { BearerAuthenticateOptions, BearerTokenStrategy } from './bearer-token.strategy';
import { isPublicRoute } from './public.decorator';
import { ROUTE_AUDIENCES_KEY, RouteAudiences } from './route-audiences';
import { rejectionFor } from './token-rejection';

const STRATEGY = 'jwt';

/**
 * The global guard (APP_GUARD): every HTTP route needs a valid bearer token unless `@Public()`.
 * The verified caller is put on `request.caller` for `@Caller()` and the authorization guard.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  private readonly logger = new Logger(JwtAuthGuard.name);
  /**
   * A private passport instance rather than the global one: the standalone profile runs several
   * Nest applications in one process, and in the global registry the last app to register 'jwt'
   * would verify every app's tokens with its options.
   */
  private readonly passport = new passport.Authenticator();

  constructor(
    private readonly reflector: Reflector,
    strategy: BearerTokenStrategy,
    private readonly moduleRef?: ModuleRef,
  ) {
    this.passport.use(STRATEGY, strategy);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // RPC handlers receive the caller inside the message and WebSockets are not served; only HTTP
    // carries a bearer token here.
    if (context.getType() !== 'http') return true;
    if (isPublicRoute(this.reflector, context)) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<Response>();
    try {
      request.caller = await this.authenticate(request, response, this.routeAudiences(context, request));
    } catch (error) {
      if (error instanceof AuthenticationError) this.challenge(context, response, request);
      throw error;
    }
    return true;
  }

  /**
   * RFC 6750 §3: a 401 names the scheme, and `invalid_token` when a token was sent but refused; a
   * route may add auth-params of its own first (`@BearerChallenge`, e.g. RFC 9728 `resource_metadata`).
   */
  private challenge(context: ExecutionContext, response: Response, request: AuthenticatedRequest): void {
    if (response.headersSent) return;
    const parameters = { ...this.routeChallengeParameters(context, request), ...(request.headers.authorization ? { error: 'invalid_token' } : {}) };
    response.setHeader('WWW-Authenticate', formatBearerChallenge(parameters));
  }

  private routeChallengeParameters(context: ExecutionContext, request: AuthenticatedRequest): Record<string, string> {
    const provider = this.routeProvider<BearerChallengeParameters>(BEARER_CHALLENGE_KEY, context);
    if (!provider) return {};
    try {
      return provider.parametersFor(request);
    } catch (error) {
      // The 401 still goes out, with the plain challenge: a broken extra must not turn it into a 500.
      this.logger.error(`Bearer challenge parameters of ${provider.constructor.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return {};
    }
  }

  /** The audiences the route accepts besides the configured one (`@AcceptAudiences`); none if its provider fails (fail closed). */
  private routeAudiences(context: ExecutionContext, request: AuthenticatedRequest): readonly string[] {
    const provider = this.routeProvider<RouteAudiences>(ROUTE_AUDIENCES_KEY, context);
    if (!provider) return [];
    try {
      return provider.audiencesFor(request);
    } catch (error) {
      this.logger.error(`Route audiences of ${provider.constructor.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }

  /** The provider instance a route (or its controller) names under `key`, resolved in the route's application. */
  private routeProvider<T>(key: string, context: ExecutionContext): T | undefined {
    const provider = this.reflector.getAllAndOverride<Type<T> | undefined>(key, [context.getHandler(), context.getClass()]);
    if (!provider || !this.moduleRef) return undefined;
    try {
      return this.moduleRef.get(provider, { strict: false });
    } catch (error) {
      this.logger.error(`Provider ${provider.name} named by ${key} is not available: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private authenticate(request: AuthenticatedRequest, response: Response, audiences: readonly string[]): Promise<TrustedCaller> {
    return new Promise<TrustedCaller>((resolve, reject) => {
      const onOutcome = (error: unknown, caller: TrustedCaller | false, failure: unknown): void => {
        // An error (not a failure) is a defect in verification itself; the problem filter makes it a 500.
        if (error) return reject(error);
        if (caller) return resolve(caller);
        const rejection = rejectionFor(failure);
        if (rejection instanceof IdentityProviderUnavailableError) {
          this.logger.warn(`Issuer keys unavailable: ${failure instanceof Error ? failure.message : String(failure)}`);
        } else {
          this.logger.debug(`Bearer token refused: ${rejection.message}`);
        }
        reject(rejection);
      };
      // passport calls `next` only when a strategy passes, which this one never does.
      const next = (error?: unknown): void => reject(error ?? authenticationFailure('unverifiable'));
      const options: BearerAuthenticateOptions = { session: false, audiences };
      this.passport.authenticate(STRATEGY, options, onOutcome)(request, response, next);
    });
  }
}
