import { defineService } from '@lp/platform/runtime';
import { createMessagingTablesMigration, createProcessedEventTimeIndexMigration, OutboxMessage, ProcessedEvent } from '@lp/platform/messaging';
import { CreateRoleTable1763700000000 } from './migrations/1763700000000-CreateRoleTable';
import { CreatePolicyTables1763700000001 } from './migrations/1763700000001-CreatePolicyTables';
import { CreateGovernanceTables1763700000002 } from './migrations/1763700000002-CreateGovernanceTables';
import { AbacRulesModule } from './abac-rules/abac-rules.module';
import { CatalogModule } from './catalog';
import { PermissionAuditModule } from './permission-audit/permission-audit.module';
import { PermissionSimulationModule } from './permission-simulation/permission-simulation.module';
import { FeaturesModule } from './features/features.module';
import { PolicyChangeModule } from './policy-change';
import { POLICY_STORE_ENTITIES } from './policy-store';
import { RoleEntity } from './roles/entities/role.entity';
import { MenuModule } from './menu/menu.module';
import { PermissionsModule } from './permissions/permissions.module';
import { RolesModule } from './roles/roles.module';
import { DelegatedAdminModule } from './delegated-admin/delegated-admin.module';
import { PermissionRequestsModule } from './permission-requests/permission-requests.module';
import { SharingModule } from './sharing/sharing.module';
import { FieldSecurityModule } from './field-security/field-security.module';
import { TenantBootstrapModule } from './tenant-bootstrap/tenant-bootstrap.module';
import { PolicyChangeLogTimeIndex1763700000003 } from './migrations/1763700000003-PolicyChangeLogTimeIndex';
import { PolicyManagementRetentionModule } from './retention/policy-management-retention.module';

export const POLICY_MANAGEMENT_SCHEMA = 'authz';

/** policy-management: owns the `authz` schema and every /api/authorization route but decisions. */
export const policyManagementService = defineService({
  name: 'policy-management',
  routePrefixes: ['/api/authorization'],
  database: {
    schema: POLICY_MANAGEMENT_SCHEMA,
    entities: [RoleEntity, ...POLICY_STORE_ENTITIES, OutboxMessage, ProcessedEvent],
    migrations: [
      createMessagingTablesMigration(POLICY_MANAGEMENT_SCHEMA),
      CreateRoleTable1763700000000,
      CreatePolicyTables1763700000001,
      CreateGovernanceTables1763700000002,
      PolicyChangeLogTimeIndex1763700000003,
      createProcessedEventTimeIndexMigration(POLICY_MANAGEMENT_SCHEMA),
    ],
  },
  modules: [
    PolicyChangeModule,
    CatalogModule,
    RolesModule,
    PermissionsModule,
    MenuModule,
    PermissionAuditModule,
    PermissionSimulationModule,
    DelegatedAdminModule,
    PermissionRequestsModule,
    AbacRulesModule,
    FeaturesModule,
    SharingModule,
    FieldSecurityModule,
    TenantBootstrapModule,
    PolicyManagementRetentionModule,
  ],
  openApi: {
    title: 'Policy management',
    description: 'Roles, bindings, permissions, ABAC rules, features and governance of the authorization platform.',
  },
});
