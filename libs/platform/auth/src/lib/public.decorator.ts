import { ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

export const IS_PUBLIC_KEY = 'lp:public';

/**
 * Opts a route (or a whole controller) out of bearer authentication: health probes, metrics and
 * the OpenAPI document, which orchestrators and scrapers call without a token. Everything else is
 * authenticated by default, so forgetting a decorator fails closed.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);

/** Also for other guards (the authorization guard) that must let the same routes through. */
export function isPublicRoute(reflector: Reflector, context: ExecutionContext): boolean {
  return reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()]) === true;
}
