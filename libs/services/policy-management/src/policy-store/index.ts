import { AbacRuleEntity } from './entities/abac-rule.entity';
import { DelegatedGrantEntity } from './entities/delegated-grant.entity';
import { FeatureDefinitionEntity } from './entities/feature-definition.entity';
import { FeatureOverrideEntity } from './entities/feature-override.entity';
import { FieldPolicyEntity } from './entities/field-policy.entity';
import { PermissionEntity } from './entities/permission.entity';
import { PermissionRequestEntity } from './entities/permission-request.entity';
import { PolicyChangeLogEntity } from './entities/policy-change-log.entity';
import { ResourceRelationEntity } from './entities/resource-relation.entity';
import { RolePermissionEntity } from './entities/role-permission.entity';
import { SubjectOfficeEntity } from './entities/subject-office.entity';
import { TemporaryGrantEntity } from './entities/temporary-grant.entity';
import { UserRoleEntity } from './entities/user-role.entity';
import { RoleEntity } from './entities/role.entity';
import { TenantStatusEntity } from './entities/tenant-status.entity';

export * from './entities/abac-rule.entity';
export * from './entities/delegated-grant.entity';
export * from './entities/feature-definition.entity';
export * from './entities/feature-override.entity';
export * from './entities/field-policy.entity';
export * from './entities/permission.entity';
export * from './entities/permission-request.entity';
export * from './entities/policy-change-log.entity';
export * from './entities/resource-relation.entity';
export * from './entities/role-permission.entity';
export * from './entities/subject-office.entity';
export * from './entities/temporary-grant.entity';
export * from './entities/user-role.entity';
export * from './entities/role.entity';
export * from './entities/tenant-status.entity';

/** The policy records of spec §2, the governance records (migrations 0000–0002) and the tenant status fact. */
export const POLICY_STORE_ENTITIES = [
  RoleEntity,
  PermissionEntity,
  RolePermissionEntity,
  UserRoleEntity,
  SubjectOfficeEntity,
  AbacRuleEntity,
  FeatureDefinitionEntity,
  FeatureOverrideEntity,
  ResourceRelationEntity,
  TemporaryGrantEntity,
  DelegatedGrantEntity,
  FieldPolicyEntity,
  PermissionRequestEntity,
  PolicyChangeLogEntity,
  TenantStatusEntity,
];
