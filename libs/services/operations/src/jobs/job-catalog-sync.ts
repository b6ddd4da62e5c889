import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { FLEET_SERVICE_NAMES, JobDeclaration, jobDeclarationSchema, ServiceRpc } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { RpcClient } from '@lp/platform/messaging';
import { CatalogSyncChanges, JobDefinitionRepository } from './job-definition.repository';
import { JobsConfig, jobsConfig } from './jobs.config';
import { schedulerCaller } from './scheduler-caller';

/** One service's part of a reconciliation: what changed, or why it was skipped. */
export type ServiceCatalogSync = { service: string; jobs: number; changes: CatalogSyncChanges } | { service: string; skipped: string };

const SYNC_INTERVAL = 'operations.catalog-sync';

/**
 * Seeds and reconciles job definitions from every service's code catalog (spec §1): at start and
 * every OPERATIONS_CATALOG_SYNC_MS, asking each service over RPC. A service that does not answer
 * is skipped for the round (its definitions stay as they are: being down is not leaving the
 * catalog); an entry that is not a valid declaration, or that names another service as its source,
 * fails that service's round rather than seeding something the owner cannot run.
 */
@Injectable()
export class JobCatalogSync implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobCatalogSync.name);
  private running?: Promise<ServiceCatalogSync[]>;

  constructor(
    private readonly rpc: RpcClient,
    private readonly definitions: JobDefinitionRepository,
    private readonly scheduler: SchedulerRegistry,
    @InjectConfig(jobsConfig) private readonly config: JobsConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Not awaited: in the fleet the other services may still be starting; the next round catches up.
    void this.syncNow();
    this.scheduler.addInterval(
      SYNC_INTERVAL,
      setInterval(() => void this.syncNow(), this.config.OPERATIONS_CATALOG_SYNC_MS),
    );
  }

  beforeApplicationShutdown(): Promise<unknown> {
    if (this.scheduler.doesExist('interval', SYNC_INTERVAL)) this.scheduler.deleteInterval(SYNC_INTERVAL);
    return this.running ?? Promise.resolve();
  }

  /** One reconciliation of every service (a round already going is joined, not doubled). */
  syncNow(): Promise<ServiceCatalogSync[]> {
    this.running ??= Promise.all(FLEET_SERVICE_NAMES.map((service) => this.syncService(service))).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async syncService(service: string): Promise<ServiceCatalogSync> {
    let catalog: JobDeclaration[];
    try {
      const answer = await this.rpc.call(
        ServiceRpc.jobCatalog(service),
        { caller: schedulerCaller, payload: {} },
        { timeoutMs: this.config.OPERATIONS_CATALOG_TIMEOUT_MS },
      );
      catalog = answer.map((entry) => jobDeclarationSchema.parse(entry));
      const foreign = catalog.filter((entry) => entry.source !== service);
      if (foreign.length > 0) throw new Error(`entries naming another source: ${foreign.map((e) => `${e.jobName} (${e.source})`).join(', ')}`);
    } catch (error) {
      const skipped = error instanceof Error ? error.message : String(error);
      this.logger.warn(`job catalog of ${service} not reconciled this round: ${skipped}`);
      return { service, skipped };
    }
    try {
      const changes = await this.definitions.reconcileCatalog(service, catalog, new Date());
      for (const [what, names] of Object.entries(changes) as Array<[string, string[]]>) {
        if (names.length > 0) this.logger.log(`job definitions of ${service} ${what}: ${names.join(', ')}`);
      }
      return { service, jobs: catalog.length, changes };
    } catch (error) {
      const skipped = error instanceof Error ? error.message : String(error);
      this.logger.warn(`job definitions of ${service} could not be reconciled: ${skipped}`);
      return { service, skipped };
    }
  }
}
