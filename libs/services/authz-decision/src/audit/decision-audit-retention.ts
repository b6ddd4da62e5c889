import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@lp/platform/config';
import { JobHandler, JobRunContext } from '@lp/platform/jobs';
import { describeRetentionRun, purgeInBatches, retentionCutoff, RetentionRun } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { AuthzDecisionConfig, authzDecisionConfig } from '../authz-decision.config';
import { AUDIT_TABLE, ensureMonthlyPartition, listMonthlyPartitions, monthStart, partitionName } from './decision-audit-partitions';
import { decisionAuditRetentionJob } from './decision-audit.jobs';

/**
 * The decision audit's retention, the job `authz-decision.decision-audit-retention` (its processed
 * events are the platform's job). `prepare` creates the monthly partitions ahead, at start (so a
 * fresh database does not wait for the first run) and at every run; `purge` drops every partition
 * whose whole month is past retention, then deletes in batches what is left before the cutoff (the
 * oldest kept month, and the default partition).
 */
@Injectable()
export class DecisionAuditRetention implements OnApplicationBootstrap {
  private readonly logger = new Logger(DecisionAuditRetention.name);

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(authzDecisionConfig) private readonly config: AuthzDecisionConfig,
    @InjectConfig(platformConfig) private readonly platform: PlatformConfig,
  ) {}

  /** A failure here does not stop the start: the default partition takes the rows meanwhile, and the job retries. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      const created = await this.prepare(new Date());
      if (created) this.logger.log(created);
    } catch (error) {
      this.logger.error(`decision audit partitions ahead not created: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** One run of the job: partitions ahead, then the purge, as of the run's `now`. */
  @JobHandler(decisionAuditRetentionJob.jobName)
  async run({ now }: JobRunContext): Promise<string> {
    const created = await this.prepare(now);
    const purged = describeRetentionRun(await this.purge(now));
    return created ? `${purged}; ${created}` : purged;
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
