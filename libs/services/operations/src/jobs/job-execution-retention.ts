import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@lp/platform/config';
import { JobHandler } from '@lp/platform/jobs';
import { purgeInBatches, retentionCutoff } from '@lp/platform/persistence';
import { JobsConfig, jobsConfig } from './jobs.config';
import { OperationsJobs } from './operations.jobs';

const BATCH_SIZE = 5000;

/** Keeps the execution audit bounded: runs older than the retention are deleted in short batches. */
@Injectable()
export class JobExecutionRetention {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(jobsConfig) private readonly config: JobsConfig,
  ) {}

  @JobHandler(OperationsJobs.executionRetention.jobName)
  async purge(): Promise<string> {
    const days = this.config.OPERATIONS_EXECUTION_RETENTION_DAYS;
    const run = await purgeInBatches(this.dataSource, {
      table: '"ops"."job_execution"',
      timeColumn: '"started_at"',
      keyColumns: ['"id"'],
      cutoff: retentionCutoff(new Date(), days),
      batchSize: BATCH_SIZE,
    });
    return `${run.rows} executions older than ${days} days deleted in ${run.batches} batches (${run.ms} ms)`;
  }
}
