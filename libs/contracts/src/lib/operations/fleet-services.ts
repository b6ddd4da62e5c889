/**
 * The services of the fleet by name, as operations asks them for their job catalog and diagnostics.
 * `@lp/fleet` holds their definitions; its spec checks the two lists agree.
 */
export const FleetService = {
  policyManagement: 'policy-management',
  authzDecision: 'authz-decision',
  operations: 'operations',
  caseManagement: 'case-management',
  mcpGateway: 'mcp-gateway',
  workflowEngine: 'workflow-engine',
  webhookDispatcher: 'webhook-dispatcher',
} as const;

export type FleetServiceName = (typeof FleetService)[keyof typeof FleetService];

export const FLEET_SERVICE_NAMES: readonly FleetServiceName[] = Object.values(FleetService);
