import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectConfig } from '@lp/platform/config';
import { CorrelationContext } from '@lp/platform/observability';
import { JobDefinitionRepository } from './job-definition.repository';
import { JobExecutionAudit } from './job-execution-audit';
import { JobRunner } from './job-runner';
import { JobsConfig, jobsConfig } from './jobs.config';
import { DISPATCHER_ID, schedulerCaller } from './scheduler-caller';

const TICK_INTERVAL = 'operations.scheduler-tick';
/** Due ticks claimed per pass; more wait for the next pass (a pass never holds locks for long). */
const CLAIM_BATCH = 20;
/** Abandoned runs are looked for every this many passes (about every 5 s at the default tick). */
const ABANDON_EVERY_PASSES = 20;
/** On shutdown, how long runs in flight are waited for; past it their leases will mark them abandoned. */
const SHUTDOWN_WAIT_MS = 5_000;

/**
 * The job host (spec §1, fact 3). The schedule lives in PostgreSQL, not in this process: every
 * OPERATIONS_SCHEDULER_TICK_MS each replica claims the due ticks (`claimDue`: row locks with SKIP
 * LOCKED, next tick and execution row in one transaction), so a change through the API is the
 * schedule the next pass reads, and each tick runs exactly once across replicas. A replica that
 * dies mid-run holds no lock: its run's lease runs out and the run is marked abandoned.
 */
@Injectable()
export class JobScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobScheduler.name);
  private pass?: Promise<void>;
  private passes = 0;
  private stopping = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly definitions: JobDefinitionRepository,
    private readonly audit: JobExecutionAudit,
    private readonly runner: JobRunner,
    private readonly scheduler: SchedulerRegistry,
    @InjectConfig(jobsConfig) private readonly config: JobsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.scheduler.addInterval(
      TICK_INTERVAL,
      setInterval(() => void this.runPass(), this.config.OPERATIONS_SCHEDULER_TICK_MS),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.scheduler.doesExist('interval', TICK_INTERVAL)) this.scheduler.deleteInterval(TICK_INTERVAL);
    await this.pass;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)));
    await Promise.race([Promise.allSettled([...this.inFlight]), waited]);
    clearTimeout(timer);
  }

  /** One pass now (the interval's tick; a pass still going is joined, not doubled). Resolves when claimed runs are dispatched, not finished. */
  runPass(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    this.pass ??= this.claimAndDispatch().finally(() => {
      this.pass = undefined;
    });
    return this.pass;
  }

  /** Resolves when every run dispatched so far has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async claimAndDispatch(): Promise<void> {
    const now = new Date();
    try {
      if (this.passes++ % ABANDON_EVERY_PASSES === 0) {
        const abandoned = await this.audit.abandonExpired(now);
        if (abandoned > 0) this.logger.warn(`${abandoned} job runs had no answer before their lease ran out: marked abandoned`);
      }
      const claimed = await this.definitions.claimDue(CLAIM_BATCH, now, ({ definition, scheduledFor }) => {
        const id = randomUUID();
        // Each run gets its own correlation id, so the owner's logs of the run can be found from the execution row.
        const correlationId = `job-${id}`;
        return JobExecutionAudit.newRow(
          definition,
          { id, trigger: 'schedule', scheduledFor, actor: schedulerCaller.subject, correlationId, dispatchedBy: DISPATCHER_ID },
          now,
        );
      });
      for (const { definition, execution } of claimed) {
        const run = CorrelationContext.run(execution.correlationId, () => this.runner.dispatch(definition, execution, schedulerCaller)).then((outcome) => {
          if ('error' in outcome)
            this.logger.warn(`job ${definition.jobName} run ${execution.id} failed: ${outcome.execution.errorCode ?? ''} ${outcome.execution.detail ?? ''}`);
        });
        this.inFlight.add(run);
        void run.finally(() => this.inFlight.delete(run));
      }
    } catch (error) {
      // The database or broker is away: nothing was claimed (the transaction rolled back); the next pass retries.
      this.logger.warn(`scheduler pass failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
