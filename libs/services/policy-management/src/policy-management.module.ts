import { Module } from '@nestjs/common';
import { AbacRulesModule } from './abac-rules/abac-rules.module';
import { CatalogModule } from './catalog';
import { PermissionAuditModule } from './permission-audit/permission-audit.module';
import { PermissionSimulationModule } from './permission-simulation/permission-simulation.module';
import { FeaturesModule } from './features/features.module';
import { PolicyChangeModule } from './policy-change';
import { MenuModule } from './menu/menu.module';
import { PermissionsModule } from './permissions/permissions.module';
import { RolesModule } from './roles/roles.module';
import { DelegatedAdminModule } from './delegated-admin/delegated-admin.module';
import { PermissionRequestsModule } from './permission-requests/permission-requests.module';
import { SharingModule } from './sharing/sharing.module';
import { FieldSecurityModule } from './field-security/field-security.module';
import { TenantBootstrapModule } from './tenant-bootstrap/tenant-bootstrap.module';
import { PolicyManagementRetentionModule } from './retention/policy-management-retention.module';
import { GrantExpiryModule } from './grant-expiry/grant-expiry.module';

/**
 * Wires policy-management: its feature modules (each folder owns its module) and nothing else. The
 * order is the order Nest initialises them: the change path and the catalog first.
 */
@Module({
  imports: [
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
    GrantExpiryModule,
  ],
})
export class PolicyManagementModule {}
