import { DynamicModule, Inject, Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { CronJob, validateCronExpression } from 'cron';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@lp/platform/config';
import { ProcessedEvent, qualifiedTableName } from '@lp/platform/messaging';
import { purgeInBatches, retentionCutoff, RetentionRegistry, RetentionTask } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from './platform-config';

/** The service whose app this is, for the names of its tasks. */
const RETENTION_SERVICE = Symbol('RETENTION_SERVICE');

const JOB_NAME = 'retention';

/** `processed_event` of the service's schema: every service that consumes events has one. */
export function processedEventRetention(
  dataSource: DataSource,
  config: Pick<PlatformConfig, 'PROCESSED_EVENT_RETENTION_DAYS' | 'RETENTION_BATCH_SIZE'>,
  service: string,
): RetentionTask {
  return {
    name: `${service}.processed-events`,
    description: `consumed event ids older than ${config.PROCESSED_EVENT_RETENTION_DAYS} days (PROCESSED_EVENT_RETENTION_DAYS)`,
    purge: (now) =>
      purgeInBatches(dataSource, {
        table: qualifiedTableName(dataSource, ProcessedEvent),
        timeColumn: '"processed_at"',
        keyColumns: ['"consumer"', '"event_id"'],
        cutoff: retentionCutoff(now, config.PROCESSED_EVENT_RETENTION_DAYS),
        batchSize: config.RETENTION_BATCH_SIZE,
      }),
  };
}

/**
 * Runs the service's retention tasks (`RetentionRegistry`): their `prepare` once at start, then
 * `prepare` and `purge` of each, one after the other, on `RETENTION_SCHEDULE`. A task that fails is
 * logged and the others still run; a run still going when the next is due is not doubled.
 */
@Injectable()
export class RetentionScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(RetentionScheduler.name);
  private running?: Promise<void>;

  constructor(
    private readonly registry: RetentionRegistry,
    private readonly scheduler: SchedulerRegistry,
    @InjectConfig(platformConfig) private readonly config: PlatformConfig,
    dataSource: DataSource,
    @Inject(RETENTION_SERVICE) service: string,
  ) {
    const check = validateCronExpression(config.RETENTION_SCHEDULE);
    if (!check.valid)
      throw new Error(`RETENTION_SCHEDULE ${JSON.stringify(config.RETENTION_SCHEDULE)} is not a cron expression: ${check.error?.message ?? 'invalid'}`);
    // Every service consumes events, so every service remembers them: the platform's own task.
    registry.register(processedEventRetention(dataSource, config, service));
  }

  async onApplicationBootstrap(): Promise<void> {
    const now = new Date();
    for (const task of this.registry.list()) await this.step(task.name, 'prepare', async () => task.prepare?.(now));
    const job = CronJob.from({ cronTime: this.config.RETENTION_SCHEDULE, onTick: () => void this.runAll(), start: false });
    this.scheduler.addCronJob(JOB_NAME, job);
    job.start();
  }

  /** Every task now (the schedule's tick; tests and, later, the operations service call it too). */
  runAll(now = new Date()): Promise<void> {
    this.running ??= this.runTasks(now).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async runTasks(now: Date): Promise<void> {
    for (const task of this.registry.list()) {
      await this.step(task.name, 'prepare', async () => task.prepare?.(now));
      await this.step(task.name, 'purge', async () => {
        const run = await task.purge(now);
        return `${run.rows} rows in ${run.batches} batches, ${run.ms} ms${run.detail ? `; ${run.detail}` : ''}`;
      });
    }
  }

  private async step(name: string, what: 'prepare' | 'purge', work: () => Promise<string | undefined>): Promise<void> {
    try {
      const said = await work();
      if (said) this.logger.log(`retention ${name} ${what}: ${said}`);
    } catch (error) {
      this.logger.error(`retention ${name} ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** The retention registry and its schedule, for every service app (see ServiceHostModule). */
@Module({})
export class RetentionModule {
  static forService(service: string): DynamicModule {
    return {
      module: RetentionModule,
      global: true,
      imports: [ScheduleModule.forRoot()],
      providers: [{ provide: RETENTION_SERVICE, useValue: service }, RetentionRegistry, RetentionScheduler],
      exports: [RetentionRegistry, RetentionScheduler],
    };
  }
}
