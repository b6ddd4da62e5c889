export * from './policy-management.service-definition';
export { CatalogIds, CatalogSeeder, catalogToSeed } from './catalog';
export type { SeedReport } from './catalog';
export { policyManagementConfig } from './policy-management.config';
export { PolicyManagementRetention } from './retention/policy-management-retention.module';
export { changeLogRetentionJob } from './retention/policy-management.jobs';
export { expireGrantsJob } from './grant-expiry/grant-expiry.jobs';
export { GrantExpiry } from './grant-expiry/grant-expiry.service';
export { CaseOwnerRelationListener, CASE_OWNER_CONSUMER } from './sharing/case-owner-relation.listener';
