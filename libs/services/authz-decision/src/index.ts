export * from './authz-decision.service-definition';
// The audit writer's class is the Nest token tests use to flush it (never sleep-and-count).
export { DecisionAuditWriter } from './audit/decision-audit-writer';
// The decision core's conformance corpus (schema and loader) and the fact snapshots it is written
// in: the standalone app's service-level runner replays the same files against the real service.
export * from './decision/conformance/conformance-corpus';
export type {
  PolicyFactsChange,
  PolicyFactsSnapshot,
  TenantFactsSnapshot,
  TemporaryGrantSnapshot,
  DelegatedGrantSnapshot,
  AbacConditionSnapshot,
  AbacRuleSnapshot,
} from './decision/in-memory-policy-facts';
export type { DataScopeSetting, PolicyStoreName, ResourceRelation as RelationSnapshot } from './decision/policy-facts';
export { authzDecisionConfig } from './authz-decision.config';
// Retention: the task (run directly by tests and, later, the operations service) and the partitions it keeps.
export { DecisionAuditRetention } from './retention/decision-audit-retention.module';
export { ensureMonthlyPartition, monthStart, partitionName } from './retention/decision-audit-partitions';
