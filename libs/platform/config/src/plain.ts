/**
 * `@lp/platform/config/plain`: configuration declarations and their validation, without the Nest
 * module, for a process that does not load Nest (the console's app, `@lp/platform/runtime/console`).
 */
export * from './lib/config-key-spec';
export * from './lib/config-values';
export * from './lib/config-validation-error';
export { isBlankConfigValue } from './lib/config-value-parser';
export * from './lib/config-declaration';
export * from './lib/config-report';
export * from './lib/config-registry';
