/**
 * `@lp/service/webhook-dispatcher/testing`: what other projects' specs and the benchmarks use of
 * this service's test code. Only specs and benchmarks may import it; nothing here ships.
 */
// A real HTTP receiver recording deliveries, with programmable answers and both signature checks.
export * from './webhook-receiver';
