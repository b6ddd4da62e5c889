import { ApiProperty } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import type { JobExecutionStatus } from '../../store';

/** One run in the execution audit. */
export class JobExecutionResponse {
  @ApiProperty({ format: 'uuid' }) executionId!: string;
  @ApiProperty() jobName!: string;
  @ApiProperty({ enum: ['schedule', 'manual'] }) trigger!: 'schedule' | 'manual';
  @ApiProperty({ enum: ['running', 'succeeded', 'failed', 'skipped', 'abandoned'] }) status!: JobExecutionStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The tick of a scheduled run.' }) scheduledFor!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) startedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: "When the owning service's handler started, as it reported." })
  ownerStartedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The binding's own error code, or the platform's (Job.Timeout, Job.Abandoned, ...)." })
  errorCode!: string | null;
  @ApiProperty({ type: String, nullable: true }) detail!: string | null;
  @ApiProperty({ type: String, nullable: true }) correlationId!: string | null;
  @ApiProperty({ description: "The person's subject for a manual run; `operations-scheduler` for a scheduled one." }) actor!: string;
}

export class JobExecutionPage extends PageMeta {
  @ApiProperty({ type: [JobExecutionResponse] }) items!: JobExecutionResponse[];
}
