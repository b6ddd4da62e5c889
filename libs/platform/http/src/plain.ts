/**
 * `@lp/platform/http/plain`: problem bodies, security headers and the HTTP semantics helpers, without
 * Nest, for a process that does not load it (the console's app, `@lp/platform/runtime/console`).
 */
export * from './lib/problem-details';
export * from './lib/security-headers';
export * from './lib/http-semantics';
