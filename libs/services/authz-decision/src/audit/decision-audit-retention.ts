import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@lp/platform/config';
import { purgeInBatches, retentionCutoff, RetentionRegistry, RetentionRun, RetentionTask } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { AuthzDecisionConfig, authzDecisionConfig } from '../authz-decision.config';
import { AUDIT_TABLE, ensureMonthlyPartition, listMonthlyPartitions, monthStart, partitionName } from './decision-audit-partitions';

/**
 * authz-decision's retention tasks, in one place: the decision audit. (Its processed events are the
 * platform's task.) `prepare` creates the monthly partitions ahead (at start and before each purge);
 * `purge` drops every partition whose whole month is past retention, then deletes in batches what
 * is left before the cutoff (the oldest kept month, and the default partition). These become the
 * service's jobs when the operations service lands.
 */
@Injectable()
export class DecisionAuditRetention implements OnModuleInit {
  constructor(
    private readonly registry: RetentionRegistry,
    private readonly dataSource: DataSource,
    @InjectConfig(authzDecisionConfig) private readonly config: AuthzDecisionConfig,
    @InjectConfig(platformConfig) private readonly platform: PlatformConfig,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.task());
  }

  task(): RetentionTask {
    const days = this.config.DECISION_AUDIT_RETENTION_DAYS;
    return {
      name: 'authz-decision.decision-audit',
      description: `decisions older than ${days} days (DECISION_AUDIT_RETENTION_DAYS); monthly partitions ${this.config.DECISION_AUDIT_PARTITIONS_AHEAD} months ahead`,
      prepare: (now) => this.prepare(now),
      purge: (now) => this.purge(now),
    };
  }

  /** Creates the partitions of this month and the next `DECISION_AUDIT_PARTITIONS_AHEAD`. */
  async prepare(now: Date): Promise<string | undefined> {
    const created: string[] = [];
    for (let ahead = 0; ahead <= this.config.DECISION_AUDIT_PARTITIONS_AHEAD; ahead++) {
      const month = monthStart(now, ahead);
      if (await ensureMonthlyPartition(this.dataSource, month)) created.push(partitionName(month));
    }
    return created.length > 0 ? `created partitions ${created.join(', ')}` : undefined;
  }

  async purge(now: Date): Promise<RetentionRun> {
    const cutoff = retentionCutoff(now, this.config.DECISION_AUDIT_RETENTION_DAYS);
    const started = performance.now();
    const dropped: string[] = [];
    for (const { name, month } of await listMonthlyPartitions(this.dataSource)) {
      // Whole month before the cutoff: a DROP, no row-by-row delete and no long lock.
      if (monthStart(month, 1) > cutoff) break;
      await this.dataSource.query(`DROP TABLE "authz_audit"."${name}"`);
      dropped.push(name);
    }
    const rest = await purgeInBatches(this.dataSource, {
      table: AUDIT_TABLE,
      timeColumn: '"decided_at"',
      keyColumns: ['"decision_id"', '"decided_at"'],
      cutoff,
      batchSize: this.platform.RETENTION_BATCH_SIZE,
    });
    return {
      rows: rest.rows,
      batches: rest.batches,
      ms: Math.round(performance.now() - started),
      ...(dropped.length > 0 ? { detail: `dropped partitions ${dropped.join(', ')}` } : {}),
    };
  }
}
