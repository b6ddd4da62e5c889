import { ConfigOf, declareConfig } from '@lp/platform/config';

/** policy-management's own keys (the platform keys are in the runtime's declaration). */
export const policyManagementConfig = declareConfig('policy-management', {
  POLICY_CHANGE_LOG_RETENTION_DAYS: {
    type: 'int',
    group: 'retention',
    description: 'days the policy change log keeps a change (who changed which policy, before and after)',
    default: 90,
    min: 1,
  },
  PERMISSION_REQUEST_APPROVALS: {
    type: 'string',
    group: 'permission-requests',
    description:
      'who decides a filed permission request: `workflow` (the engine starts a `permission-request` instance; until one is recorded on the request, and where the workflow.runtime feature is off, the approve/reject routes still decide) or `direct` (only the routes)',
    oneOf: ['workflow', 'direct'],
    default: 'workflow',
  },
});

export type PolicyManagementConfig = ConfigOf<typeof policyManagementConfig>;
