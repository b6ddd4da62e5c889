import { authzGuard } from '@lp/authz-guard';
import { FleetService } from '@lp/contracts';
import { messagingMigrations, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { defineService } from '@lp/platform/runtime';
import { CreateJobTables1764000000000 } from './migrations/1764000000000-CreateJobTables';
import { OPERATIONS_JOBS } from './jobs/operations.jobs';
import { CreateTenantTable1764000000100 } from './migrations/1764000000100-CreateTenantTable';
import { OperationsModule } from './operations.module';
import { OPERATIONS_ENTITIES } from './store';

export const OPERATIONS_SCHEMA = 'ops';

/**
 * operations: background-job control (definitions, the scheduler, the execution audit), the tenant
 * store (`platform` schema) and the fleet-wide diagnostics, under /api/operations.
 */
export const operationsService = defineService({
  name: FleetService.operations,
  authorization: authzGuard,
  routePrefixes: ['/api/operations'],
  database: {
    schema: OPERATIONS_SCHEMA,
    entities: [...OPERATIONS_ENTITIES, OutboxMessage, ProcessedEvent],
    migrations: [...messagingMigrations(OPERATIONS_SCHEMA), CreateJobTables1764000000000, CreateTenantTable1764000000100],
  },
  modules: [OperationsModule],
  jobs: OPERATIONS_JOBS,
  openApi: {
    title: 'Operations',
    description: 'Background-job control, the tenant store and fleet-wide diagnostics (governance, adapters, connectors, configuration).',
  },
});
