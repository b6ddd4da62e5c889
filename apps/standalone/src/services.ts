import { ServiceDefinition } from '@lp/platform/runtime';
import { authzDecisionService } from '@lp/service/authz-decision';
import { policyManagementService } from '@lp/service/policy-management';

/**
 * The services the standalone process hosts, in start order: authz-decision first, so the guards
 * of the others can reach it. Adding a service to the fleet is one line here.
 */
export const standaloneServices: ServiceDefinition[] = [authzDecisionService, policyManagementService];
