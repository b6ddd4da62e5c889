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
});

export type PolicyManagementConfig = ConfigOf<typeof policyManagementConfig>;
