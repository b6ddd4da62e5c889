import { SetMetadata, Type } from '@nestjs/common';
import type { Request } from 'express';

export const ROUTE_AUDIENCES_KEY = 'lp:route-audiences';

/**
 * Token audiences a route accepts besides the service's own (`JWT_AUDIENCE`), computed per request:
 * e.g. an RFC 9728 protected resource whose clients ask their issuer for tokens with
 * `resource=<its URL>` (RFC 8707), so that `aud` is that URL, which depends on the configured or
 * requested host. A provider of the module that declares the route; `JwtAuthGuard` resolves it by class.
 */
export interface RouteAudiences {
  /** Absolute identifiers (exact strings, compared as given). Must not throw for any request. */
  audiencesFor(request: Request): string[];
}

/**
 * Names the provider of the extra audiences this route (or controller) accepts. Only there: a token
 * for that audience is refused everywhere else, as a token for another service would be.
 *
 *   @AcceptAudiences(McpResourceAudience)
 *   @Controller('mcp')
 */
export const AcceptAudiences = (provider: Type<RouteAudiences>): MethodDecorator & ClassDecorator => SetMetadata(ROUTE_AUDIENCES_KEY, provider);

/** RFC 7519 §4.1.3: the token is for us when `aud` (a string or an array of them) names one of `accepted`. */
export function audienceAccepted(aud: unknown, accepted: readonly string[]): boolean {
  const named = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
  return named.some((a) => accepted.includes(a));
}
