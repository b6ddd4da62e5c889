import { hostname } from 'node:os';
import { AuthorizationAction, PLATFORM_TENANT, permissionCode, TrustedCaller } from '@lp/contracts';

export const SCHEDULER_CLIENT_ID = 'operations-scheduler';

/**
 * Who the scheduler is when it reads catalogs and runs jobs: an application caller of the platform
 * tenant whose scopes are exactly the two job permissions, so the owning service's guard decides it
 * like any client (AppScope) and a person's manual run is decided on the person's own permissions.
 */
export const schedulerCaller: TrustedCaller = {
  kind: 'application',
  subject: SCHEDULER_CLIENT_ID,
  clientId: SCHEDULER_CLIENT_ID,
  tenantId: PLATFORM_TENANT,
  scopes: [permissionCode('operations', 'jobs', AuthorizationAction.View), permissionCode('operations', 'jobs', AuthorizationAction.Manage)],
  claimsDigest: SCHEDULER_CLIENT_ID,
};

/** This operations instance, as execution rows name their dispatcher. */
export const DISPATCHER_ID = `${hostname()}:${process.pid}`;
