export * from './catalog-ids';
export * from './catalog.module';
export * from './catalog.seeder';
export * from './permission-catalog';
