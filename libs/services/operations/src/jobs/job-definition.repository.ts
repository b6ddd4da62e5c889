import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, MoreThan } from 'typeorm';
import { JobDeclaration } from '@lp/contracts';
import { containsPattern } from '@lp/platform/persistence';
import { jobRuns } from '@lp/platform/observability';
import { JobDefinitionEntity, JobExecutionEntity, JobExecutionStatus } from '../store';
import { nextTick, StoredSchedule, storedScheduleOf } from './job-schedule';

/** A definition with its latest run, as the job list shows it. */
export interface JobDefinitionWithLastRun {
  definition: JobDefinitionEntity;
  lastRun: JobExecutionEntity | null;
}

/** The filters of the job list; `lastRunStatus: 'none'` keeps the jobs that never ran. */
export interface JobListFilter {
  search?: string;
  source?: string;
  enabled?: boolean;
  lastRunStatus?: JobExecutionStatus | 'none';
}

/** A tick the scheduler claimed: the definition as it was, and the tick it is to run for. */
export interface ClaimedTick {
  definition: JobDefinitionEntity;
  scheduledFor: Date;
}

/** What one catalog reconciliation changed. */
export interface CatalogSyncChanges {
  inserted: string[];
  restored: string[];
  softDeleted: string[];
}

/**
 * The `ops.job_definition` queries: the job list, the schedule writes (each one UPDATE, so a
 * concurrent writer can only ever replace a whole schedule: last writer wins, and the CHECK
 * constraints hold the §2 invariants whatever the interleaving), the catalog reconciliation and
 * the scheduler's claim.
 */
@Injectable()
export class JobDefinitionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(): Promise<JobDefinitionWithLastRun[]> {
    const definitions = await this.dataSource.getRepository(JobDefinitionEntity).find({ where: { deletedAt: IsNull() }, order: { jobName: 'ASC' } });
    return this.withLastRuns(definitions);
  }

  /**
   * One page of the live definitions, by JobName, with the filters of `GET /jobs` (all must hold).
   * The latest-run filter reads each job's newest execution through the (job_name, started_at DESC,
   * id DESC) index, the same row `lastRun` shows.
   */
  async page(filter: JobListFilter, window: { skip: number; take: number }): Promise<[JobDefinitionWithLastRun[], number]> {
    const query = this.dataSource.getRepository(JobDefinitionEntity).createQueryBuilder('d').where('d.deletedAt IS NULL');
    if (filter.search !== undefined) {
      query.andWhere(`(d."job_name" ILIKE :search ESCAPE '\\' OR d."description" ILIKE :search ESCAPE '\\')`, { search: containsPattern(filter.search) });
    }
    if (filter.source !== undefined) query.andWhere('d.source = :source', { source: filter.source });
    if (filter.enabled !== undefined) query.andWhere('d.enabled = :enabled', { enabled: filter.enabled });
    if (filter.lastRunStatus === 'none') {
      query.andWhere(`NOT EXISTS (SELECT 1 FROM "ops"."job_execution" e WHERE e."job_name" = d."job_name")`);
    } else if (filter.lastRunStatus !== undefined) {
      query.andWhere(
        `(SELECT e."status" FROM "ops"."job_execution" e WHERE e."job_name" = d."job_name" ORDER BY e."started_at" DESC, e."id" DESC LIMIT 1) = :lastRunStatus`,
        { lastRunStatus: filter.lastRunStatus },
      );
    }
    const [definitions, totalCount] = await query.orderBy('d.jobName', 'ASC').skip(window.skip).take(window.take).getManyAndCount();
    return [await this.withLastRuns(definitions), totalCount];
  }

  /** One live definition with its latest run; null when there is none under that name. */
  async findWithLastRun(jobName: string): Promise<JobDefinitionWithLastRun | null> {
    const definition = await this.find(jobName);
    return definition && { definition, lastRun: await this.lastRunOf(jobName) };
  }

  /** The latest run of each job in one query (DISTINCT ON over the (job_name, started_at) index). */
  private async withLastRuns(definitions: JobDefinitionEntity[]): Promise<JobDefinitionWithLastRun[]> {
    if (definitions.length === 0) return [];
    const lastRuns = await this.dataSource
      .getRepository(JobExecutionEntity)
      .createQueryBuilder('e')
      .distinctOn(['e.jobName'])
      .where('e.jobName IN (:...names)', { names: definitions.map((d) => d.jobName) })
      .orderBy('e.jobName')
      .addOrderBy('e.startedAt', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .getMany();
    const byJob = new Map(lastRuns.map((run) => [run.jobName, run]));
    return definitions.map((definition) => ({ definition, lastRun: byJob.get(definition.jobName) ?? null }));
  }

  /** Whether a definition was ever seeded under this name (soft-deleted ones included). */
  everExisted(jobName: string): Promise<boolean> {
    return this.dataSource.getRepository(JobDefinitionEntity).exists({ where: { jobName }, withDeleted: true });
  }

  lastRunOf(jobName: string): Promise<JobExecutionEntity | null> {
    return this.dataSource.getRepository(JobExecutionEntity).findOne({ where: { jobName }, order: { startedAt: 'DESC', id: 'DESC' } });
  }

  find(jobName: string, manager: EntityManager = this.dataSource.manager): Promise<JobDefinitionEntity | null> {
    return manager.getRepository(JobDefinitionEntity).findOne({ where: { jobName, deletedAt: IsNull() } });
  }

  /** Replaces cron, interval and Enabled at once (spec §3); null when there is no live definition. */
  async replaceSchedule(jobName: string, schedule: StoredSchedule, enabled: boolean, now: Date): Promise<JobDefinitionEntity | null> {
    const next = enabled ? nextTick(schedule, now) : null;
    const result = await this.dataSource
      .createQueryBuilder()
      .update(JobDefinitionEntity)
      .set({ cron: schedule.cron, intervalSeconds: schedule.intervalSeconds, enabled, nextRunAt: next })
      .where('job_name = :jobName AND deleted_at IS NULL', { jobName })
      .execute();
    return result.affected ? this.find(jobName) : null;
  }

  /**
   * Stop or start, keeping cron and interval (spec §3). The row is locked while it is checked and
   * written, so a concurrent PUT clearing the schedule cannot slip between "has a schedule" and the
   * write. The answer tells which: 'not-found', 'no-schedule' or the updated definition.
   */
  async setEnabled(jobName: string, enabled: boolean, now: Date): Promise<JobDefinitionEntity | 'not-found' | 'no-schedule'> {
    return this.dataSource.transaction(async (manager) => {
      const current = await manager
        .getRepository(JobDefinitionEntity)
        .createQueryBuilder('d')
        .setLock('pessimistic_write')
        .where('d.jobName = :jobName AND d.deletedAt IS NULL', { jobName })
        .getOne();
      if (!current) return 'not-found';
      if (enabled && current.cron === null && current.intervalSeconds === null) return 'no-schedule';
      // Starting an enabled job keeps its next tick; a fresh start counts from now.
      const next = enabled ? (current.enabled && current.nextRunAt ? current.nextRunAt : nextTick(current, now)) : null;
      await manager.getRepository(JobDefinitionEntity).update({ jobName }, { enabled, nextRunAt: next });
      return { ...current, enabled, nextRunAt: next };
    });
  }

  /**
   * Brings the definitions of one service in line with its catalog: a new JobName is inserted with
   * the catalog's default schedule (enabled when it has one); an existing one gets the catalog's
   * facts (never its runtime schedule, which operations owns); one that had left and came back is
   * restored with the schedule it had; one the catalog no longer lists is soft-deleted. Safe with
   * replicas reconciling at the same moment (upserts keyed on JobName).
   */
  async reconcileCatalog(source: string, catalog: readonly JobDeclaration[], now: Date): Promise<CatalogSyncChanges> {
    return this.dataSource.transaction(async (manager) => {
      const names = catalog.map((entry) => entry.jobName);
      const existing: Array<{ job_name: string; deleted: boolean }> = await manager.query(
        `SELECT "job_name", "deleted_at" IS NOT NULL AS "deleted" FROM "ops"."job_definition" WHERE "job_name" = ANY($1::text[]) FOR UPDATE`,
        [names],
      );
      const known = new Map(existing.map((row) => [row.job_name, row.deleted]));
      const changes: CatalogSyncChanges = {
        inserted: names.filter((name) => !known.has(name)),
        restored: names.filter((name) => known.get(name) === true),
        softDeleted: [],
      };
      for (const entry of catalog) {
        const defaults = storedScheduleOf(entry.defaultSchedule);
        const enabled = entry.defaultSchedule !== null;
        await manager.query(
          `INSERT INTO "ops"."job_definition" AS d
             ("job_name", "cron", "interval_seconds", "enabled", "source", "description", "module_name", "is_critical",
              "default_cron", "default_interval_seconds", "timeout_seconds", "next_run_at")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $2, $3, $9, $10)
           ON CONFLICT ("job_name") DO UPDATE SET
             "source" = EXCLUDED."source", "description" = EXCLUDED."description", "module_name" = EXCLUDED."module_name",
             "is_critical" = EXCLUDED."is_critical", "default_cron" = EXCLUDED."default_cron",
             "default_interval_seconds" = EXCLUDED."default_interval_seconds", "timeout_seconds" = EXCLUDED."timeout_seconds",
             "deleted_at" = NULL,
             "next_run_at" = CASE WHEN d."deleted_at" IS NULL THEN d."next_run_at" ELSE NULL END`,
          [
            entry.jobName,
            defaults.cron,
            defaults.intervalSeconds,
            enabled,
            source,
            entry.description,
            entry.moduleName,
            entry.isCritical,
            entry.timeoutSeconds,
            enabled ? nextTick(defaults, now) : null,
          ],
        );
      }
      // A restored job resumes its own schedule (the catalog default only seeds new rows).
      for (const jobName of changes.restored) {
        const restored = await manager.getRepository(JobDefinitionEntity).findOneByOrFail({ jobName });
        if (restored.enabled) await manager.getRepository(JobDefinitionEntity).update({ jobName }, { nextRunAt: nextTick(restored, now) });
      }
      const deleted = await manager
        .createQueryBuilder()
        .update(JobDefinitionEntity)
        .set({ deletedAt: now, nextRunAt: null })
        .where('source = :source AND deleted_at IS NULL', { source })
        .andWhere(names.length > 0 ? 'NOT (job_name = ANY(:names))' : 'true', { names })
        .returning(['jobName'])
        .execute();
      changes.softDeleted = (deleted.raw as Array<{ job_name: string }>).map((row) => row.job_name);
      return changes;
    });
  }

  /**
   * Claims up to `limit` due ticks for this replica: rows locked with SKIP LOCKED (a replica never
   * waits for another's claim), each moved to its next tick and its execution row written in the
   * same transaction. Once committed no other replica sees the tick as due, and the execution's
   * unique (job, tick) index refuses a second run of it even if one did. Only the ticks to dispatch
   * are returned (a skipped one is recorded, not run).
   */
  async claimDue(
    limit: number,
    now: Date,
    executionRow: (tick: ClaimedTick) => JobExecutionEntity,
  ): Promise<Array<ClaimedTick & { execution: JobExecutionEntity }>> {
    const skipped: string[] = [];
    const claimed = await this.dataSource.transaction(async (manager) => {
      skipped.length = 0; // counted once the transaction commits
      const due = await manager
        .getRepository(JobDefinitionEntity)
        .createQueryBuilder('d')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where('d.enabled AND d.deletedAt IS NULL AND d.nextRunAt <= :now', { now })
        .orderBy('d.nextRunAt', 'ASC')
        .limit(limit)
        .getMany();
      const claimed: Array<ClaimedTick & { execution: JobExecutionEntity }> = [];
      for (const definition of due) {
        if (!definition.nextRunAt) continue;
        const scheduledFor = definition.nextRunAt;
        const next = nextTick(definition, now, scheduledFor);
        await manager.getRepository(JobDefinitionEntity).update({ jobName: definition.jobName }, { nextRunAt: next });
        const execution = executionRow({ definition, scheduledFor });
        // Runs of one job never overlap: a tick that finds the previous run still going is recorded as skipped.
        const previous = await manager.getRepository(JobExecutionEntity).findOne({
          select: { id: true },
          where: { jobName: definition.jobName, status: 'running', leaseUntil: MoreThan(now) },
        });
        if (previous) {
          Object.assign(execution, { status: 'skipped', finishedAt: now, leaseUntil: null, detail: `the previous run (${previous.id}) was still running` });
        }
        await manager.getRepository(JobExecutionEntity).insert(execution);
        if (!previous) claimed.push({ definition, scheduledFor, execution });
        else skipped.push(definition.jobName);
      }
      return claimed;
    });
    for (const job of skipped) jobRuns.inc({ job_name: job, status: 'skipped' });
    return claimed;
  }
}
