import { JobDefinitionEntity, JobExecutionEntity } from '../store';
import { JobExecutionResponse } from './dto/job-execution.response';
import { JobScheduleEntryResponse } from './dto/job-schedule-entry.response';
import { cronExpressionOf } from './job-schedule';

export function scheduleEntryOf(definition: JobDefinitionEntity, lastRun: JobExecutionEntity | null): JobScheduleEntryResponse {
  return {
    jobName: definition.jobName,
    source: definition.source,
    description: definition.description,
    moduleName: definition.moduleName,
    isCritical: definition.isCritical,
    cronExpression: cronExpressionOf(definition),
    enabled: definition.enabled,
    catalogDefault: { cronExpression: cronExpressionOf({ cron: definition.defaultCron, intervalSeconds: definition.defaultIntervalSeconds }) },
    nextRunAt: definition.nextRunAt?.toISOString() ?? null,
    lastRun: lastRun && {
      executionId: lastRun.id,
      status: lastRun.status,
      trigger: lastRun.trigger,
      startedAt: lastRun.startedAt.toISOString(),
      finishedAt: lastRun.finishedAt?.toISOString() ?? null,
      errorCode: lastRun.errorCode,
    },
  };
}

export function executionOf(row: JobExecutionEntity): JobExecutionResponse {
  return {
    executionId: row.id,
    jobName: row.jobName,
    trigger: row.trigger,
    status: row.status,
    scheduledFor: row.scheduledFor?.toISOString() ?? null,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    ownerStartedAt: row.ownerStartedAt?.toISOString() ?? null,
    errorCode: row.errorCode,
    detail: row.detail,
    correlationId: row.correlationId,
    actor: row.actor,
  };
}
