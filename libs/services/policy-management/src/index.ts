export * from './policy-management.service-definition';
export { CatalogIds, CatalogSeeder, catalogToSeed } from './catalog';
export type { SeedReport } from './catalog';
export { policyManagementConfig } from './policy-management.config';
export { PolicyManagementRetention } from './retention/policy-management-retention.module';
