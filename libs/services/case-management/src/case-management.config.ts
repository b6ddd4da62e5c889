import { ConfigOf, declareConfig } from '@lp/platform/config';

/** case-management's own keys (the platform keys are in the runtime's declaration). */
export const caseManagementConfig = declareConfig('case-management', {
  CASES_DEFAULT_CURRENCY: {
    type: 'string',
    group: 'cases',
    description: 'ISO 4217 currency (three upper-case letters) of a new case whose request names none',
    default: 'USD',
    minLength: 3,
  },
});

export type CaseManagementConfig = ConfigOf<typeof caseManagementConfig>;
