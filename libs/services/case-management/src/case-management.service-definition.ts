import { authzGuard } from '@lp/authz-guard';
import { FleetService } from '@lp/contracts';
import { messagingMigrations, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { defineService } from '@lp/platform/runtime';
import { CaseManagementModule } from './case-management.module';
import { CreateCaseTables1764200000000 } from './migrations/1764200000000-CreateCaseTables';
import { CASE_MANAGEMENT_ENTITIES } from './store';

export const CASES_SCHEMA = 'cases';

/**
 * case-management: litigation cases under /api/cases and RPC `cases.create` / `cases.get`, each
 * guarded by `@Authorize` with facts loaded from its own `cases` schema; publishes `case.*`.
 */
export const caseManagementService = defineService({
  name: FleetService.caseManagement,
  authorization: authzGuard,
  routePrefixes: ['/api/cases'],
  database: {
    schema: CASES_SCHEMA,
    entities: [...CASE_MANAGEMENT_ENTITIES, OutboxMessage, ProcessedEvent],
    migrations: [...messagingMigrations(CASES_SCHEMA), CreateCaseTables1764200000000],
  },
  modules: [CaseManagementModule],
  openApi: {
    title: 'Case management',
    description: 'Litigation cases: the business module behind the MCP case tools and the reference user of the guard library.',
  },
});
