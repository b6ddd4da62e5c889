import { ServiceDefinition } from '@lp/platform/runtime';
import { authzDecisionService } from '@lp/service/authz-decision';
import { policyManagementService } from '@lp/service/policy-management';

/**
 * The services the standalone process hosts, in start order: policy-management first, so the
 * `authz` schema that authz-decision reads is migrated before decisions are asked for. Adding a
 * service to the fleet is one line here.
 */
export const standaloneServices: ServiceDefinition[] = [policyManagementService, authzDecisionService];
