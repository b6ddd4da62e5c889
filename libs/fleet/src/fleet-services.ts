import { CONSOLE_PREFIX, ServiceDefinition } from '@lp/platform/runtime';
import { authzDecisionService } from '@lp/service/authz-decision';
import { caseManagementService } from '@lp/service/case-management';
import { mcpGatewayService } from '@lp/service/mcp-gateway';
import { operationsService } from '@lp/service/operations';
import { webhookDispatcherService } from '@lp/service/webhook-dispatcher';
import { workflowEngineService } from '@lp/service/workflow-engine';
import { policyManagementService } from '@lp/service/policy-management';

/**
 * The services of the fleet, in start order (the standalone process hosts them all; `start:fleet`
 * runs each in its own process): policy-management first, so the
 * `authz` schema that authz-decision reads is migrated before decisions are asked for. Adding a
 * service to the fleet is one line here.
 */
export const fleetServices: ServiceDefinition[] = [
  policyManagementService,
  authzDecisionService,
  operationsService,
  caseManagementService,
  mcpGatewayService,
  workflowEngineService,
  webhookDispatcherService,
];

/**
 * The admin console's app (`apps/console`), deployed beside the services behind the same edge. It is
 * no `ServiceDefinition`: no schema, queue, jobs or secret; static files, health and metrics only.
 */
export const fleetConsole = { name: 'console', routePrefixes: [CONSOLE_PREFIX] } as const;
