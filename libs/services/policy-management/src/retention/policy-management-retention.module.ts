import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConfigModule, InjectConfig } from '@lp/platform/config';
import { purgeInBatches, retentionCutoff, RetentionRegistry, RetentionTask } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { PolicyManagementConfig, policyManagementConfig } from '../policy-management.config';

/**
 * policy-management's retention tasks, in one place: the change log. (Its processed events are the
 * platform's task.) These become the service's jobs when the operations service lands.
 */
@Injectable()
export class PolicyManagementRetention implements OnModuleInit {
  constructor(
    private readonly registry: RetentionRegistry,
    private readonly dataSource: DataSource,
    @InjectConfig(policyManagementConfig) private readonly config: PolicyManagementConfig,
    @InjectConfig(platformConfig) private readonly platform: PlatformConfig,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.changeLog());
  }

  changeLog(): RetentionTask {
    const days = this.config.POLICY_CHANGE_LOG_RETENTION_DAYS;
    return {
      name: 'policy-management.policy-change-log',
      description: `policy changes older than ${days} days (POLICY_CHANGE_LOG_RETENTION_DAYS)`,
      purge: (now) =>
        purgeInBatches(this.dataSource, {
          table: '"authz"."policy_change_log"',
          timeColumn: '"occurred_at"',
          keyColumns: ['"id"'],
          cutoff: retentionCutoff(now, days),
          batchSize: this.platform.RETENTION_BATCH_SIZE,
        }),
    };
  }
}

@Module({ imports: [ConfigModule.forRoot(policyManagementConfig)], providers: [PolicyManagementRetention], exports: [PolicyManagementRetention] })
export class PolicyManagementRetentionModule {}
