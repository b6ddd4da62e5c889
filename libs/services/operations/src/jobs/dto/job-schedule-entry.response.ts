import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import type { JobExecutionStatus } from '../../store';

export class JobLastRun {
  @ApiProperty({ format: 'uuid' }) executionId!: string;
  @ApiProperty({ enum: ['running', 'succeeded', 'failed', 'skipped', 'abandoned'] }) status!: JobExecutionStatus;
  @ApiProperty({ enum: ['schedule', 'manual'] }) trigger!: 'schedule' | 'manual';
  @ApiProperty({ type: String, format: 'date-time' }) startedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) errorCode!: string | null;
}

export class JobCatalogDefault {
  @ApiProperty({ type: String, nullable: true, description: "The catalog's default, in the same rendering as `cronExpression`." })
  cronExpression!: string | null;
}

/**
 * A job schedule entry (spec §2): the catalog's facts and the **effective persisted** schedule and
 * Enabled (not the catalog default the spec admits showing after an update), with the default,
 * the next tick and the last run beside them.
 */
export class JobScheduleEntryResponse {
  @ApiProperty({ example: 'authz-decision.decision-audit-retention' }) jobName!: string;
  @ApiProperty({ description: 'The owning service, whose queue runs the job.' }) source!: string;
  @ApiProperty() description!: string;
  @ApiProperty() moduleName!: string;
  @ApiProperty() isCritical!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The cron expression, `interval:{seconds}s` for an interval, or null when unscheduled. Test the `interval:` prefix first.',
  })
  cronExpression!: string | null;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: JobCatalogDefault }) catalogDefault!: JobCatalogDefault;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The next tick; null while disabled.' }) nextRunAt!: string | null;
  /**
   * Null for a job that never ran. Not `{ type: JobLastRun, nullable: true }`: @nestjs/swagger renders
   * that as `nullable` beside `allOf: [$ref]`, and in OpenAPI 3.0 `nullable` does not reach into the
   * `allOf`, so a validator refuses the null. `anyOf` the object or a null-only schema says it in 3.0.
   */
  @ApiProperty({
    anyOf: [{ $ref: getSchemaPath(JobLastRun) }, { type: 'object', nullable: true, enum: [null] }],
    description: 'The latest run, or null when the job never ran.',
  })
  lastRun!: JobLastRun | null;
}

export class JobSchedulePage extends PageMeta {
  @ApiProperty({ type: [JobScheduleEntryResponse] }) items!: JobScheduleEntryResponse[];
}
