import type { AuditedEvaluation, AuditedResourceFacts, CallerKind, DecisionOutcome, DecisionReasonCode } from '@lp/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One authorization decision, written for every call, cache hits included (spec §1 decision path
 * rule 3, cache rule 3). No schema here: authz-decision's DataSource puts it in `authz_audit`.
 * Indexes are in the migration (`CreateDecisionAudit1763700000100`; the document columns became
 * `json` in `DecisionAuditJsonColumns1763700000101`; the table is partitioned by month of
 * `decided_at` since `PartitionDecisionAudit1763700000110`, so the key includes it); the schema
 * changes only there.
 */
@Entity({ name: 'decision_audit' })
export class DecisionAuditRecord {
  @PrimaryColumn({ name: 'decision_id', type: 'uuid' })
  decisionId!: string;

  @PrimaryColumn({ name: 'decided_at', type: 'timestamptz' })
  decidedAt!: Date;

  @Column({ name: 'tenant_id', type: 'text' })
  tenantId!: string;

  @Column({ name: 'caller_kind', type: 'text' })
  callerKind!: CallerKind;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ name: 'client_id', type: 'text', nullable: true })
  clientId!: string | null;

  /** The acting subject of a delegated caller. */
  @Column({ type: 'text', nullable: true })
  actor!: string | null;

  @Column({ type: 'text' })
  action!: string;

  @Column({ type: 'text' })
  module!: string;

  @Column({ name: 'resource_type', type: 'text' })
  resourceType!: string;

  @Column({ name: 'resource_id', type: 'text', nullable: true })
  resourceId!: string | null;

  @Column({ name: 'resource_facts', type: 'json' })
  resourceFacts!: AuditedResourceFacts;

  @Column({ type: 'text' })
  outcome!: DecisionOutcome;

  /** The merge rule that decided (`reasonCodeOf`); null on records written before it was kept. */
  @Column({ name: 'reason_code', type: 'text', nullable: true })
  reasonCode!: DecisionReasonCode | null;

  /** The merge's refusal when no evaluator denied (`DelegationNotCovered: …`). */
  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ type: 'json' })
  evaluations!: AuditedEvaluation[];

  /** Answered from the decision cache (the DataScope was still recomputed). */
  @Column({ type: 'boolean' })
  cached!: boolean;

  @Column({ name: 'latency_ms', type: 'real' })
  latencyMs!: number;

  @Column({ name: 'correlation_id', type: 'text', nullable: true })
  correlationId!: string | null;

  /** The revision counters the decision was made under. */
  @Column({ type: 'json', nullable: true })
  revisions!: Record<string, number> | null;

  /** Why it failed closed, when it did for an infrastructure reason (`PolicyStoreUnavailable`, ...). */
  @Column({ type: 'text', nullable: true })
  failure!: string | null;
}
