import type { TrustedCaller } from '@lp/contracts';
import type { Request } from 'express';

/** An HTTP request after `JwtAuthGuard`: `caller` is set on every route that is not `@Public()`. */
export interface AuthenticatedRequest extends Request {
  caller?: TrustedCaller;
}
