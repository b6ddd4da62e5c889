export * from './lib/authorize.decorator';
export * from './lib/authorize.guard';
export * from './lib/authorization-context';
export * from './lib/resource-facts-loader';
export * from './lib/data-scope.query';
export * from './lib/permission-collector';
export * from './lib/authz-guard.module';
export * from './lib/permission-check';
