import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { JobRunResult } from '@lp/contracts';
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

/** A manual run's answer (`POST /jobs/{jobName}/run`): the owner's result and the execution it was audited under. */
export class ManualRunResponse implements Omit<JobRunResult, 'startedAt'> {
  @ApiProperty({ enum: ['succeeded', 'failed'], description: "The owner's result; a business failure is `failed` with its `errorCode`." })
  status!: JobRunResult['status'];
  @ApiPropertyOptional({ description: "The binding's own code of a business failure; absent when the run succeeded." }) errorCode?: string;
  @ApiPropertyOptional({ description: 'One line: what the run did or why it failed; absent when the binding said nothing.' }) detail?: string;
  @ApiProperty({ type: JobExecutionResponse, description: 'The execution row the run was audited under (as `GET /jobs/{jobName}/executions` lists it).' })
  execution!: JobExecutionResponse;
}
