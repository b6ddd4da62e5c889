import { authzGuard } from '@lp/authz-guard';
import { defineService } from '@lp/platform/runtime';
import { PolicyManagementModule } from './policy-management.module';
import { messagingMigrations, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { CreateRoleTable1763700000000 } from './migrations/1763700000000-CreateRoleTable';
import { CreatePolicyTables1763700000001 } from './migrations/1763700000001-CreatePolicyTables';
import { CreateGovernanceTables1763700000002 } from './migrations/1763700000002-CreateGovernanceTables';
import { POLICY_STORE_ENTITIES } from './policy-store';
import { PolicyChangeLogTimeIndex1763700000003 } from './migrations/1763700000003-PolicyChangeLogTimeIndex';
import { GrantExpiryRecorded1763700000004 } from './migrations/1763700000004-GrantExpiryRecorded';
import { changeLogRetentionJob } from './retention/policy-management.jobs';
import { expireGrantsJob } from './grant-expiry/grant-expiry.jobs';
import { CreateTenantStatusTable1764100000000 } from './migrations/1764100000000-CreateTenantStatusTable';
import { UserRoleMembersIndex1764900000000 } from './migrations/1764900000000-UserRoleMembersIndex';

export const POLICY_MANAGEMENT_SCHEMA = 'authz';

/** policy-management: owns the `authz` schema and every /api/authorization route but decisions. */
export const policyManagementService = defineService({
  name: 'policy-management',
  authorization: authzGuard,
  routePrefixes: ['/api/authorization'],
  database: {
    schema: POLICY_MANAGEMENT_SCHEMA,
    entities: [...POLICY_STORE_ENTITIES, OutboxMessage, ProcessedEvent],
    migrations: [
      ...messagingMigrations(POLICY_MANAGEMENT_SCHEMA),
      CreateRoleTable1763700000000,
      CreatePolicyTables1763700000001,
      CreateGovernanceTables1763700000002,
      PolicyChangeLogTimeIndex1763700000003,
      GrantExpiryRecorded1763700000004,
      CreateTenantStatusTable1764100000000,
      UserRoleMembersIndex1764900000000,
    ],
  },
  modules: [PolicyManagementModule],
  jobs: [changeLogRetentionJob, expireGrantsJob],
  openApi: {
    title: 'Policy management',
    description: 'Roles, bindings, permissions, ABAC rules, features and governance of the authorization platform.',
  },
});
