import { CanActivate, ExecutionContext, Injectable, Logger, Type } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { AuthenticationError, type TrustedCaller } from '@lp/contracts';
import type { Response } from 'express';
import passport from 'passport';
import { authenticationFailure, IdentityProviderUnavailableError } from './auth.errors';
import { BEARER_CHALLENGE_KEY, BearerChallengeParameters, formatBearerChallenge } from './bearer-challenge';
import type { AuthenticatedRequest } from './authenticated-request';
import { BearerTokenStrategy } from './bearer-token.strategy';
import { isPublicRoute } from './public.decorator';
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
      request.caller = await this.authenticate(request, response);
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
    const provider = this.reflector.getAllAndOverride<Type<BearerChallengeParameters> | undefined>(BEARER_CHALLENGE_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!provider || !this.moduleRef) return {};
    try {
      return this.moduleRef.get(provider, { strict: false }).parametersFor(request);
    } catch (error) {
      // The 401 still goes out, with the plain challenge: a broken extra must not turn it into a 500.
      this.logger.error(`Bearer challenge parameters of ${provider.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return {};
    }
  }

  private authenticate(request: AuthenticatedRequest, response: Response): Promise<TrustedCaller> {
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
      this.passport.authenticate(STRATEGY, { session: false }, onOutcome)(request, response, next);
    });
  }
}
