export * from './lib/config-key-spec';
export * from './lib/config-values';
export * from './lib/config-validation-error';
export { isBlankConfigValue } from './lib/config-value-parser';
export * from './lib/config-declaration';
export * from './lib/config-report';
export * from './lib/config-registry';
export * from './lib/config.module';
