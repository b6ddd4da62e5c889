/**
 * `@lp/platform/runtime/console`: the console's app alone (`apps/console`). The runtime's main entry
 * loads Nest, TypeORM and every adapter; this one only what serving the console needs.
 */
export { runConsole } from './run-console';
