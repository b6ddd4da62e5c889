/**
 * `@lp/service/authz-decision/testing`: what other projects' specs and the benchmarks use of this
 * service's test code. Only specs and benchmarks may import it (the boundary rule refuses it
 * anywhere else); nothing here ships.
 */
// The decision core's conformance corpus (schema and loader) and the fact snapshots it is written
// in: the service-level runner in the e2e project replays the same files against the real service.
export * from './conformance/conformance-corpus';
// The in-memory policy facts: the engine's reader in unit specs and in the benchmarks.
export * from './in-memory-policy-facts';
// The DDL copy of the `authz` tables the SQL reader's spec runs against (this service may not import
// policy-management); the e2e project checks it against policy-management's migrations.
export { POLICY_READER_TEST_SCHEMA } from './policy-reader-test-schema';
