import { createSecretKey } from 'node:crypto';
import type { Request } from 'express';
import { DomainError } from '@lp/contracts';
import type { Algorithm } from 'jsonwebtoken';
import { ExtractJwt, Strategy, type SecretOrKeyProvider, type StrategyOptionsWithRequest, type VerifiedCallback } from 'passport-jwt';
import type { AccessTokenClaims } from './access-token-claims';
import { authenticationFailure } from './auth.errors';
import { callerFromClaims } from './caller-from-claims';
import { jwksKeyProvider } from './jwks-key-provider';
import { acceptedAlgorithms, assertJwtVerificationOptions, DEFAULT_MAX_TOKEN_TTL_SECONDS, JwtVerificationOptions } from './jwt-verification-options';
import { audienceAccepted } from './route-audiences';
import { lifetimeRejection, screenToken } from './token-rejection';

/** Tolerated clock difference between the issuer and this service when checking `exp` and `nbf`. */
const CLOCK_TOLERANCE_SECONDS = 5;

const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();

/** What `JwtAuthGuard` passes to `passport.authenticate` for one request. */
export interface BearerAuthenticateOptions {
  session?: boolean;
  /** Audiences this request's route accepts besides the configured one (`@AcceptAudiences`). */
  audiences?: readonly string[];
}

/**
 * passport-jwt, configured once per options: the token comes only from `Authorization: Bearer`,
 * issuer, audience and algorithms are pinned, and a verified token becomes a `TrustedCaller`.
 * Failures reach passport as `fail(reason)`; `rejectionFor` turns the reason into the client's error.
 *
 * The audience is checked here rather than by jsonwebtoken, whose option is fixed at construction:
 * a route may accept more audiences than the configured one (`@AcceptAudiences`), known per
 * request. passport runs each request on its own copy of the strategy, so the route's audiences
 * travel from `authenticate` to the claims check in a map keyed by the request.
 */
export class BearerTokenStrategy extends Strategy {
  /** Async because an issuer JWKS needs its key provider loaded first. */
  static async create(options: JwtVerificationOptions): Promise<BearerTokenStrategy> {
    assertJwtVerificationOptions(options);
    // A KeyObject, not the string: given a string, jsonwebtoken 9 first tries it as a public key on
    // every verification (a thrown and caught error) before making a secret key of it, about 0.4 ms
    // of CPU per request (measured in the MCP bench's profile).
    const keySource = options.secret
      ? { secretOrKey: createSecretKey(Buffer.from(options.secret)) as unknown as string }
      : { secretOrKeyProvider: await jwksKeyProvider(options.jwksUri as string) };
    return new BearerTokenStrategy(options, keySource);
  }

  private readonly accepted: readonly Algorithm[];
  private readonly routeAudiences: WeakMap<Request, readonly string[]>;

  private constructor(options: JwtVerificationOptions, keySource: { secretOrKey: string } | { secretOrKeyProvider: SecretOrKeyProvider }) {
    const accepted = acceptedAlgorithms(options);
    const routeAudiences = new WeakMap<Request, readonly string[]>();
    const audiencesOf = (request: Request): readonly string[] => [options.audience, ...(routeAudiences.get(request) ?? [])];
    super(
      {
        ...keySource,
        jwtFromRequest: bearerToken,
        issuer: options.issuer,
        algorithms: [...accepted],
        jsonWebTokenOptions: { clockTolerance: CLOCK_TOLERANCE_SECONDS },
        passReqToCallback: true,
      } as StrategyOptionsWithRequest,
      claimsVerifier(options.maxTtlSeconds ?? DEFAULT_MAX_TOKEN_TTL_SECONDS, audiencesOf),
    );
    this.accepted = accepted;
    this.routeAudiences = routeAudiences;
  }

  override authenticate(request: Request, options?: BearerAuthenticateOptions): void {
    const token = bearerToken(request);
    if (!token) return this.fail(authenticationFailure('noToken'), 401);
    const refusal = screenToken(token, this.accepted);
    if (refusal) return this.fail(refusal, 401);
    if (options?.audiences?.length) this.routeAudiences.set(request, options.audiences);
    super.authenticate(request, options);
  }
}

/**
 * After the signature, issuer, `exp` and `nbf` checks of jsonwebtoken: the audience (the configured
 * one or one the route accepts), the lifetime rules (`lifetimeRejection`), then the caller. Claims
 * that verify but cannot name a caller are a failed authentication (401), not an error (500).
 */
function claimsVerifier(maxTtlSeconds: number, audiencesOf: (request: Request) => readonly string[]) {
  return (request: Request, claims: AccessTokenClaims, done: VerifiedCallback): void => {
    if (!audienceAccepted(claims.aud, audiencesOf(request))) return done(null, false, authenticationFailure('wrongAudience'));
    const refusal = lifetimeRejection(claims, { maxTtlSeconds, clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS, nowSeconds: Math.floor(Date.now() / 1000) });
    if (refusal) return done(null, false, refusal);
    try {
      done(null, callerFromClaims(claims));
    } catch (failure) {
      if (failure instanceof DomainError) done(null, false, failure);
      else done(failure);
    }
  };
}
