import { SetMetadata, Type } from '@nestjs/common';
import { AuthorizationAction, permissionCode } from '@lp/contracts';
import { ResourceFactsLoader } from './resource-facts-loader';

export interface AuthorizeOptions {
  module: string;
  resource: string;
  action: AuthorizationAction;
  /** Loads the resource facts (owner, status, amount, sensitivity, id) server-side; never from the request body. */
  facts?: Type<ResourceFactsLoader>;
}

export const AUTHORIZE_METADATA = 'lp:authorize';
export const SKIP_AUTHORIZATION_METADATA = 'lp:skip-authorization';

/**
 * Declares the permission a route or RPC handler needs. The guard asks authz-decision before the
 * handler runs; the permission catalog is generated from these declarations.
 */
export function Authorize(options: AuthorizeOptions): MethodDecorator & ClassDecorator {
  // Fail at load time on a malformed declaration rather than at the first request.
  permissionCode(options.module, options.resource, options.action);
  return SetMetadata(AUTHORIZE_METADATA, options);
}

/**
 * For the few authenticated routes that answer about the caller itself (e.g. "decide for me", "my
 * permissions") and therefore need no permission of their own. The reason is required so every
 * exemption is explained where it is made.
 */
export function SkipAuthorization(reason: string): MethodDecorator & ClassDecorator {
  if (!reason.trim()) throw new Error('SkipAuthorization needs a reason');
  return SetMetadata(SKIP_AUTHORIZATION_METADATA, reason);
}
