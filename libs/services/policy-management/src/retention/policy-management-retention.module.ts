import { Injectable, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConfigModule, InjectConfig } from '@lp/platform/config';
import { JobHandler, JobRunContext } from '@lp/platform/jobs';
import { describeRetentionRun, purgeInBatches, retentionCutoff, RetentionRun } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { PolicyManagementConfig, policyManagementConfig } from '../policy-management.config';
import { changeLogRetentionJob } from './policy-management.jobs';

/**
 * policy-management's retention: the change log, the job `policy-management.change-log-retention`.
 * (Its processed events are the platform's job.)
 */
@Injectable()
export class PolicyManagementRetention {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(policyManagementConfig) private readonly config: PolicyManagementConfig,
    @InjectConfig(platformConfig) private readonly platform: PlatformConfig,
  ) {}

  @JobHandler(changeLogRetentionJob.jobName)
  async run({ now }: JobRunContext): Promise<string> {
    return describeRetentionRun(await this.purgeChangeLog(now));
  }

  purgeChangeLog(now: Date): Promise<RetentionRun> {
    return purgeInBatches(this.dataSource, {
      table: '"authz"."policy_change_log"',
      timeColumn: '"occurred_at"',
      keyColumns: ['"id"'],
      cutoff: retentionCutoff(now, this.config.POLICY_CHANGE_LOG_RETENTION_DAYS),
      batchSize: this.platform.RETENTION_BATCH_SIZE,
    });
  }
}

@Module({ imports: [ConfigModule.forRoot(policyManagementConfig)], providers: [PolicyManagementRetention], exports: [PolicyManagementRetention] })
export class PolicyManagementRetentionModule {}
