export * from './policy-management.service-definition';
export { CatalogIds, CatalogSeeder, catalogToSeed } from './catalog';
export type { SeedReport } from './catalog';
