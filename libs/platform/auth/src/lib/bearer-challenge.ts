import { SetMetadata, Type } from '@nestjs/common';
import type { Request } from 'express';

export const BEARER_CHALLENGE_KEY = 'lp:bearer-challenge';

/**
 * Extra auth-params for the `WWW-Authenticate: Bearer …` challenge of a 401, computed per request
 * (e.g. RFC 9728 `resource_metadata`, whose absolute URL depends on the configured or requested
 * host). A provider of the module that declares the route; `JwtAuthGuard` resolves it by class.
 */
export interface BearerChallengeParameters {
  /** Parameter name → value (unquoted; the guard quotes and escapes). Must not throw for any request. */
  parametersFor(request: Request): Record<string, string>;
}

/**
 * Names the provider that adds auth-params to this route's (or controller's) 401 challenge:
 *
 *   @BearerChallenge(McpResourceChallenge)
 *   @Controller('mcp')
 */
export const BearerChallenge = (provider: Type<BearerChallengeParameters>): MethodDecorator & ClassDecorator => SetMetadata(BEARER_CHALLENGE_KEY, provider);

/** RFC 7235 §2.1 auth-param values as quoted-strings: `"` and `\` escaped, control characters refused. */
export function formatBearerChallenge(parameters: Record<string, string>): string {
  const params = Object.entries(parameters)
    .filter(([name, value]) => /^[A-Za-z0-9_-]+$/.test(name) && !/[\p{Cc}]/u.test(value))
    .map(([name, value]) => `${name}="${value.replace(/["\\]/g, '\\$&')}"`);
  return params.length === 0 ? 'Bearer' : `Bearer ${params.join(', ')}`;
}
