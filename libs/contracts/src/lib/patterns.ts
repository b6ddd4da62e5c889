import { AuthzRpc } from './authorization-rpc';
import { CasesRpc } from './cases/cases-rpc';
import { OperationsRpc } from './operations/operations-rpc';
import { WebhooksRpc } from './webhooks/webhooks-rpc';
import { WorkflowRpc } from './workflow/workflow-rpc';

/** Each service's RPC queue, `{service}.rpc`. */
export const ServiceQueues = {
  authzDecision: 'authz-decision.rpc',
  policyManagement: 'policy-management.rpc',
} as const;

/** Every RPC contract of the fleet (the conformance tests send each a wrong shape). */
export const RPC_CONTRACTS = [
  ...Object.values(AuthzRpc),
  ...Object.values(OperationsRpc),
  ...Object.values(CasesRpc),
  ...Object.values(WorkflowRpc),
  ...Object.values(WebhooksRpc),
] as const;
