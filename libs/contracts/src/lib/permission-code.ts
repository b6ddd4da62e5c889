import { AuthorizationAction, isAuthorizationAction } from './authorization-action';

/** A permission code `{module}.{resource}.{action}`, all lower case (ARCHITECTURE.md, Decision path). */
export type PermissionCode = string;

export interface PermissionParts {
  module: string;
  resource: string;
  action: AuthorizationAction;
}

/** A module or resource segment of a permission code (what a decision request's module and resource type become, lower-cased). */
export const PERMISSION_SEGMENT = /^[a-z][a-z0-9-]*$/;

export function permissionCode(module: string, resource: string, action: AuthorizationAction): PermissionCode {
  const m = module.toLowerCase();
  const r = resource.toLowerCase();
  if (!PERMISSION_SEGMENT.test(m)) throw new Error(`Invalid module segment "${module}"`);
  if (!PERMISSION_SEGMENT.test(r)) throw new Error(`Invalid resource segment "${resource}"`);
  if (!isAuthorizationAction(action)) throw new Error(`Invalid action "${String(action)}"`);
  return `${m}.${r}.${action.toLowerCase()}`;
}

/** Parses a code back into its parts; returns null for anything that is not a well-formed code. */
export function parsePermissionCode(code: string): PermissionParts | null {
  const [module, resource, actionLower, ...extra] = code.split('.');
  if (module === undefined || resource === undefined || actionLower === undefined || extra.length > 0) return null;
  if (!PERMISSION_SEGMENT.test(module) || !PERMISSION_SEGMENT.test(resource)) return null;
  const action = (Object.values(AuthorizationAction) as string[]).find((a) => a.toLowerCase() === actionLower);
  return action ? { module, resource, action: action as AuthorizationAction } : null;
}
