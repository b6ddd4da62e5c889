import { Injectable, Logger } from '@nestjs/common';
import { FeatureGate } from '@lp/authz-guard';
import { FleetService, TrustedCaller } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { JobHandler, JobRunContext } from '@lp/platform/jobs';
import { describeRetentionRun, retentionCutoff } from '@lp/platform/persistence';
import { PlatformConfig, platformConfig } from '@lp/platform/runtime';
import { WORKFLOW_RUNTIME_FEATURE } from '../runtime-feature/workflow-runtime.guard';
import { WorkflowEngineConfig, workflowEngineConfig } from '../workflow-engine.config';
import { HistoryJobs } from './history.jobs';
import { HistoryRepository } from './history.repository';

/** The job, as the caller whose tenant's `workflow.runtime` it asks about. */
function retentionCaller(tenantId: string): TrustedCaller {
  const subject = `${FleetService.workflowEngine}:history-retention`;
  return { kind: 'application', subject, clientId: FleetService.workflowEngine, tenantId, scopes: [], claimsDigest: subject };
}

/** How many skipped tenants the run's result names (the count is always there). */
const NAMED_SKIPS = 10;

/**
 * Keeps archived history bounded (docs/history.md, Retention): per tenant, archived instances that
 * ended before the tenant's retention (its setting, else WORKFLOW_HISTORY_RETENTION_DAYS) go with
 * their tasks, events and audit rows, RETENTION_BATCH_SIZE instances per short transaction. A tenant
 * whose `workflow.runtime` is off is skipped (spec §1: the feature gates every background job); when
 * the feature cannot be read the run fails (nothing is deleted for that tenant or after it) and the
 * next run catches up. `purgeInBatches` deletes from one table by one global cutoff, so it does not fit;
 * its cutoff and report helpers do.
 */
@Injectable()
export class HistoryRetention {
  private readonly logger = new Logger(HistoryRetention.name);

  constructor(
    private readonly repository: HistoryRepository,
    private readonly features: FeatureGate,
    @InjectConfig(workflowEngineConfig) private readonly config: WorkflowEngineConfig,
    @InjectConfig(platformConfig) private readonly platform: PlatformConfig,
  ) {}

  @JobHandler(HistoryJobs.historyRetention.jobName)
  async run({ now }: JobRunContext): Promise<string> {
    const started = performance.now();
    const batchSize = this.platform.RETENTION_BATCH_SIZE;
    let rows = 0;
    let batches = 0;
    let instances = 0;
    let purgedTenants = 0;
    const skipped: string[] = [];
    for (const tenantId of await this.repository.tenantsWithArchive()) {
      if (!(await this.features.isEnabled(retentionCaller(tenantId), WORKFLOW_RUNTIME_FEATURE))) {
        skipped.push(tenantId);
        continue;
      }
      purgedTenants++;
      const cutoff = retentionCutoff(now, (await this.repository.retentionDays(tenantId)) ?? this.config.WORKFLOW_HISTORY_RETENTION_DAYS);
      for (;;) {
        const batch = await this.repository.purgeArchived(tenantId, cutoff, batchSize);
        batches++;
        rows += batch.rows;
        instances += batch.instances;
        if (batch.instances < batchSize) break;
      }
    }
    if (skipped.length > 0) this.logger.log(`history retention skipped ${skipped.length} tenant(s) with ${WORKFLOW_RUNTIME_FEATURE} off`);
    const named = skipped.slice(0, NAMED_SKIPS).join(', ') + (skipped.length > NAMED_SKIPS ? ', …' : '');
    const detail = `${instances} archived instances of ${purgedTenants} tenants; ${skipped.length} tenants skipped (${WORKFLOW_RUNTIME_FEATURE} off)${skipped.length ? `: ${named}` : ''}`;
    return describeRetentionRun({ rows, batches, ms: Math.round(performance.now() - started), detail });
  }
}
