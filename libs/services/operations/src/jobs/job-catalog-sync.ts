import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { setTimeout as delay } from 'node:timers/promises';
import { FLEET_SERVICE_NAMES, JobDeclaration, jobDeclarationSchema, ServiceRpc } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { RpcClient, RpcRemoteError, RpcTimeoutError, RpcTransportError } from '@lp/platform/messaging';
import { jobCatalogSyncs } from '@lp/platform/observability';
import { CatalogSyncChanges, JobDefinitionRepository } from './job-definition.repository';
import { JobsConfig, jobsConfig } from './jobs.config';
import { schedulerCaller } from './scheduler-caller';

/** One service's part of a reconciliation: what changed, or why it was skipped. */
export type ServiceCatalogSync = { service: string; jobs: number; changes: CatalogSyncChanges } | { service: string; skipped: string };

const SYNC_INTERVAL = 'operations.catalog-sync';
/** The first wait between two asks of a service still starting; it doubles up to the cap. */
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

/**
 * No answer, or an answer saying the service cannot decide yet (its guard's decision service is
 * not up: 503): what a service still starting gives. Anything else would not change on asking again.
 */
function notAnsweringYet(error: unknown): boolean {
  return error instanceof RpcTimeoutError || error instanceof RpcTransportError || (error instanceof RpcRemoteError && error.problem.status === 503);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Seeds and reconciles job definitions from every service's code catalog (spec §1): at start and
 * every OPERATIONS_CATALOG_SYNC_MS, asking each service over RPC. A service that does not answer
 * is skipped for the round (its definitions stay as they are: being down is not leaving the
 * catalog); an entry that is not a valid declaration, or that names another service as its source,
 * fails that service's round rather than seeding something the owner cannot run.
 *
 * The first round runs while the fleet is still starting (in the standalone, the services after
 * operations start after it; in a fleet, in any order), so it asks a silent service again with
 * backoff for up to OPERATIONS_CATALOG_STARTUP_WAIT_MS and warns only past that bound: a healthy
 * start logs no warning.
 */
@Injectable()
export class JobCatalogSync implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobCatalogSync.name);
  private readonly stopping = new AbortController();
  private running?: Promise<ServiceCatalogSync[]>;

  constructor(
    private readonly rpc: RpcClient,
    private readonly definitions: JobDefinitionRepository,
    private readonly scheduler: SchedulerRegistry,
    @InjectConfig(jobsConfig) private readonly config: JobsConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Not awaited: the app must finish starting for the services after it to start at all.
    void this.syncNow(Date.now() + this.config.OPERATIONS_CATALOG_STARTUP_WAIT_MS);
    this.scheduler.addInterval(
      SYNC_INTERVAL,
      setInterval(() => void this.syncNow(), this.config.OPERATIONS_CATALOG_SYNC_MS),
    );
  }

  beforeApplicationShutdown(): Promise<unknown> {
    if (this.scheduler.doesExist('interval', SYNC_INTERVAL)) this.scheduler.deleteInterval(SYNC_INTERVAL);
    this.stopping.abort();
    return this.running ?? Promise.resolve();
  }

  /**
   * One reconciliation of every service (a round already going is joined, not doubled). Until
   * `waitUntil` (epoch ms) a service that does not answer yet is asked again.
   */
  syncNow(waitUntil = 0): Promise<ServiceCatalogSync[]> {
    this.running ??= Promise.all(FLEET_SERVICE_NAMES.map((service) => this.syncService(service, waitUntil))).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async syncService(service: string, waitUntil: number): Promise<ServiceCatalogSync> {
    const result = await this.reconcile(service, waitUntil);
    jobCatalogSyncs.inc({ source: service, outcome: 'skipped' in result ? 'skipped' : 'reconciled' });
    return result;
  }

  private async reconcile(service: string, waitUntil: number): Promise<ServiceCatalogSync> {
    let catalog: JobDeclaration[];
    try {
      catalog = (await this.askCatalog(service, waitUntil)).map((entry) => jobDeclarationSchema.parse(entry));
      const foreign = catalog.filter((entry) => entry.source !== service);
      if (foreign.length > 0) throw new Error(`entries naming another source: ${foreign.map((e) => `${e.jobName} (${e.source})`).join(', ')}`);
    } catch (error) {
      const skipped =
        waitUntil > 0 && notAnsweringYet(error)
          ? `${describe(error)} (still, ${this.config.OPERATIONS_CATALOG_STARTUP_WAIT_MS} ms after start)`
          : describe(error);
      if (!this.stopping.signal.aborted) this.logger.warn(`job catalog of ${service} not reconciled this round: ${skipped}`);
      return { service, skipped };
    }
    try {
      const changes = await this.definitions.reconcileCatalog(service, catalog, new Date());
      // New jobs are the catalog growing with the code (every definition on a first start): debug.
      // A job leaving its catalog (its schedule stops) or coming back is news: info.
      if (changes.inserted.length > 0) this.logger.debug(`job definitions of ${service} inserted: ${changes.inserted.join(', ')}`);
      if (changes.softDeleted.length > 0) this.logger.log(`job definitions of ${service} soft-deleted: ${changes.softDeleted.join(', ')}`);
      if (changes.restored.length > 0) this.logger.log(`job definitions of ${service} restored: ${changes.restored.join(', ')}`);
      return { service, jobs: catalog.length, changes };
    } catch (error) {
      const skipped = describe(error);
      this.logger.warn(`job definitions of ${service} could not be reconciled: ${skipped}`);
      return { service, skipped };
    }
  }

  /** The service's catalog; asked again with backoff while it does not answer yet and `waitUntil` allows. */
  private async askCatalog(service: string, waitUntil: number): Promise<unknown[]> {
    for (let wait = FIRST_RETRY_MS; ; wait = Math.min(wait * 2, MAX_RETRY_MS)) {
      try {
        return await this.rpc.call(
          ServiceRpc.jobCatalog(service),
          { caller: schedulerCaller, payload: {} },
          { timeoutMs: this.config.OPERATIONS_CATALOG_TIMEOUT_MS },
        );
      } catch (error) {
        if (!notAnsweringYet(error) || Date.now() + wait > waitUntil || this.stopping.signal.aborted) throw error;
        this.logger.debug(`job catalog of ${service} not answered yet (${describe(error)}): asking again in ${wait} ms`);
        await delay(wait, undefined, { signal: this.stopping.signal }).catch(() => undefined);
        if (this.stopping.signal.aborted) throw error;
      }
    }
  }
}
