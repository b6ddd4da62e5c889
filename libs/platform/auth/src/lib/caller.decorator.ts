import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { TrustedCaller } from '@lp/contracts';
import { authenticationFailure } from './auth.errors';
import type { AuthenticatedRequest } from './authenticated-request';

/**
 * The verified caller of this HTTP request: `handler(@Caller() caller: TrustedCaller)`.
 * A handler asking for a caller where none was established (a `@Public()` route) gets a 401
 * rather than `undefined`, so a missing caller can never be mistaken for an anonymous pass.
 */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): TrustedCaller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw authenticationFailure('noToken');
  return caller;
});
