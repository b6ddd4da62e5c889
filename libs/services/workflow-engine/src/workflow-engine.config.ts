import { ConfigOf, declareConfig } from '@lp/platform/config';

/** workflow-engine's own keys (the platform keys are in the runtime's declaration); docs/definitions.md, Limits. */
export const workflowEngineConfig = declareConfig('workflow-engine', {
  WORKFLOW_DEFINITION_MAX_BYTES: {
    type: 'int',
    group: 'workflow',
    description: 'Largest definition JSON (UTF-8 bytes of its compact serialization) a draft, validate, simulate, publish or deploy accepts',
    default: 262_144,
    min: 1024,
    max: 1_000_000,
  },
  WORKFLOW_DEFINITION_MAX_NODES: {
    type: 'int',
    group: 'workflow',
    description: 'Most nodes one definition may hold',
    default: 500,
    min: 1,
    max: 10_000,
  },
  WORKFLOW_HISTORY_RETENTION_DAYS: {
    type: 'int',
    group: 'workflow',
    description:
      'Days an archived instance (its tasks and event log) is kept after it ended, for tenants without their own setting (PUT /api/workflow/history/retention); docs/history.md',
    default: 2555,
    min: 1,
    max: 36_500,
  },
});

export type WorkflowEngineConfig = ConfigOf<typeof workflowEngineConfig>;
