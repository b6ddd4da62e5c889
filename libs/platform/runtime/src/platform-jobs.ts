import { DynamicModule, Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobDeclaration } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { declareJob, JobBindingRegistry } from '@lp/platform/jobs';
import { OutboxRelay, outboxSweepJob, outboxSweepOutcome, ProcessedEvent, qualifiedTableName } from '@lp/platform/messaging';
import { describeRetentionRun, purgeInBatches, retentionCutoff } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from './platform-config';

/** The service whose app this is, for the names of its platform jobs. */
const PLATFORM_JOBS_SERVICE = Symbol('PLATFORM_JOBS_SERVICE');

/**
 * The catalog default of every retention job (daily at 03:17, server time). Operations' persisted
 * definition owns the running schedule once seeded (specs/operations.md §1, fact 2), so this is
 * no longer a configuration key: `RETENTION_SCHEDULE` is gone, change a job's cron through operations.
 */
export const RETENTION_DEFAULT_CRON = '17 3 * * *';

/** `{service}.processed-events-retention`: consumed event ids past PROCESSED_EVENT_RETENTION_DAYS. */
export function processedEventsRetentionJob(service: string): JobDeclaration {
  return declareJob({
    service,
    name: 'processed-events-retention',
    description: 'Deletes consumed event ids older than PROCESSED_EVENT_RETENTION_DAYS (deduplication memory), in batches of RETENTION_BATCH_SIZE',
    moduleName: 'PlatformJobsModule',
    schedule: { cron: RETENTION_DEFAULT_CRON },
    timeoutSeconds: 1_800,
  });
}

/**
 * The jobs the runtime adds to every service's catalog, ahead of the service's own
 * (`ServiceHostModule`): every service consumes events and has an outbox, so every service purges
 * its processed events and sweeps its outbox, each under its own JobName.
 */
export function platformJobs(service: string): JobDeclaration[] {
  return [processedEventsRetentionJob(service), outboxSweepJob(service)];
}

/**
 * Binds the platform jobs of the service in code (the JobName carries the service's name, so a
 * static `@JobHandler` cannot name it). Nothing here schedules: operations triggers the runs.
 */
@Injectable()
export class PlatformJobBindings implements OnModuleInit {
  constructor(
    private readonly registry: JobBindingRegistry,
    private readonly dataSource: DataSource,
    private readonly relay: OutboxRelay,
    @InjectConfig(platformConfig) private readonly config: PlatformConfig,
    @Inject(PLATFORM_JOBS_SERVICE) private readonly service: string,
  ) {}

  onModuleInit(): void {
    const [processedEvents, outboxSweep] = platformJobs(this.service);
    if (!processedEvents || !outboxSweep) throw new Error('platformJobs lost a declaration');
    this.registry.bind(processedEvents.jobName, async ({ now }) => describeRetentionRun(await this.purgeProcessedEvents(now)), PlatformJobBindings.name);
    this.registry.bind(outboxSweep.jobName, async ({ now }) => outboxSweepOutcome(await this.relay.sweep(now)), PlatformJobBindings.name);
  }

  purgeProcessedEvents(now: Date) {
    return purgeInBatches(this.dataSource, {
      table: qualifiedTableName(this.dataSource, ProcessedEvent),
      timeColumn: '"processed_at"',
      keyColumns: ['"consumer"', '"event_id"'],
      cutoff: retentionCutoff(now, this.config.PROCESSED_EVENT_RETENTION_DAYS),
      batchSize: this.config.RETENTION_BATCH_SIZE,
    });
  }
}

/** The bindings of `platformJobs(service)`, for every service app (see ServiceHostModule). */
@Module({})
export class PlatformJobsModule {
  static forService(service: string): DynamicModule {
    return {
      module: PlatformJobsModule,
      providers: [{ provide: PLATFORM_JOBS_SERVICE, useValue: service }, PlatformJobBindings],
      exports: [PlatformJobBindings],
    };
  }
}
