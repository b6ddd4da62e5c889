export * from './authz-decision.service-definition';
// The audit writer's class is the Nest token tests use to flush it (never sleep-and-count).
export { DecisionAuditWriter } from './audit/decision-audit-writer';
// The decision core (pure: no Nest, no I/O but its PolicyFactsReader port) and the service's parts
// around it, for the benchmarks, which measure them one by one.
export * from './engine';
export type { ResourceRelation as RelationSnapshot } from './engine/policy-facts';
export { CachedRelationsReader, cachedDecisionResult, DecisionCache, ScopeFactsCache } from './cache';
export { DecisionService } from './decisions/decision.service';
export { authzDecisionConfig } from './authz-decision.config';
// Retention: the task (run directly by tests and, later, the operations service) and the partitions it keeps.
export { DecisionAuditRetention } from './audit/decision-audit-retention';
export { decisionAuditRetentionJob } from './audit/decision-audit.jobs';
export { ensureMonthlyPartition, monthStart, partitionName } from './audit/decision-audit-partitions';
