import { authzGuard } from '@lp/authz-guard';
import { FleetService } from '@lp/contracts';
import { messagingMigrations, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { defineService } from '@lp/platform/runtime';
import { CreateDefinitionTables1764300000000 } from './migrations/1764300000000-CreateDefinitionTables';
import { CreateRuntimeTables1764400000000 } from './migrations/1764400000000-CreateRuntimeTables';
import { CreateAdminAuditTable1764500000000 } from './migrations/1764500000000-CreateAdminAuditTable';
import { CreateTaskTimerTable1764640000000 } from './migrations/1764640000000-CreateTaskTimerTable';
import { CreateManagementStore1764650000000 } from './migrations/1764650000000-CreateManagementStore';
import { CreateHistoryTables1764660000000 } from './migrations/1764660000000-CreateHistoryTables';
import { WORKFLOW_ENGINE_JOBS } from './timeouts/node-timeouts.jobs';
import { HISTORY_JOBS } from './history/history.jobs';
import { CreateReportIndexes1764730000000 } from './migrations/1764730000000-CreateReportIndexes';
import { WORKFLOW_ENTITIES } from './store';
import { WorkflowEngineModule } from './workflow-engine.module';

export const WORKFLOW_SCHEMA = 'workflow';

/**
 * workflow-engine: approval-flow definitions (drafts, validation, simulation, immutable versions,
 * deployments) and their runtime (instances, tasks), under /api/workflow; publishes `workflow.*`.
 */
export const workflowEngineService = defineService({
  name: FleetService.workflowEngine,
  authorization: authzGuard,
  routePrefixes: ['/api/workflow'],
  database: {
    schema: WORKFLOW_SCHEMA,
    entities: [...WORKFLOW_ENTITIES, OutboxMessage, ProcessedEvent],
    migrations: [
      ...messagingMigrations(WORKFLOW_SCHEMA),
      CreateDefinitionTables1764300000000,
      CreateRuntimeTables1764400000000,
      CreateAdminAuditTable1764500000000,
      CreateTaskTimerTable1764640000000,
      CreateManagementStore1764650000000,
      CreateHistoryTables1764660000000,
      CreateReportIndexes1764730000000,
    ],
  },
  jobs: [...WORKFLOW_ENGINE_JOBS, ...HISTORY_JOBS],
  modules: [WorkflowEngineModule],
  openApi: {
    title: 'Workflow engine',
    description:
      'Approval flows: definitions (draft, validate, simulate, publish, deploy, roll back), instances and tasks, node timeouts, history, reports and management.',
    // The reports are served with the HTTP method QUERY: OpenAPI 3.2 is the first to describe such operations.
    openApiVersion: '3.2.0',
  },
});
