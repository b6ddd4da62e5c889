import { ApiProperty } from '@nestjs/swagger';
import { DEPLOYMENT_ACTIONS, INSTANCE_STATUSES } from '../../store';
import { GRANULARITIES } from '../report-period';

/** What every report answers besides its rows: the period it read and its filter. */
export class ReportPeriodResponse {
  @ApiProperty({ description: 'Start of the period read (inclusive), ISO 8601 UTC.' }) from!: string;
  @ApiProperty({ description: 'End of the period read (exclusive), ISO 8601 UTC.' }) to!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The definition key filter, or null for every definition.' }) definitionKey!: string | null;
}

const statusCounts = Object.fromEntries(INSTANCE_STATUSES.map((s) => [s, { type: 'integer' as const }]));

export class InstanceCountsResponse {
  @ApiProperty() total!: number;
  @ApiProperty({ type: 'object', properties: statusCounts, description: 'Instances by their current status.' }) byStatus!: Record<string, number>;
}

export class InstanceCountsByDefinition extends InstanceCountsResponse {
  @ApiProperty() definitionKey!: string;
}

export class InstancesReportResponse extends ReportPeriodResponse {
  @ApiProperty({ type: InstanceCountsResponse, description: 'Every instance started in the period.' }) totals!: InstanceCountsResponse;
  @ApiProperty({ type: [InstanceCountsByDefinition], description: 'By definition key, most instances first (at most Limit).' })
  definitions!: InstanceCountsByDefinition[];
}

export class TaskDurationRow {
  @ApiProperty() definitionKey!: string;
  @ApiProperty() nodeKey!: string;
  @ApiProperty({ description: 'Tasks decided (approved or rejected) in the period.' }) decided!: number;
  @ApiProperty({ description: 'Seconds from the task opening to its decision.' }) avgSeconds!: number;
  @ApiProperty() p50Seconds!: number;
  @ApiProperty() p95Seconds!: number;
  @ApiProperty() maxSeconds!: number;
}

export class TaskDurationReportResponse extends ReportPeriodResponse {
  @ApiProperty({ type: [TaskDurationRow], description: 'Slowest p95 first (at most Limit).' }) nodes!: TaskDurationRow[];
}

export class ApproverRow {
  @ApiProperty({ description: 'Who decided (a proxy completion counts for the administrator who cast it).' }) approver!: string;
  @ApiProperty() decided!: number;
  @ApiProperty() approved!: number;
  @ApiProperty() rejected!: number;
  @ApiProperty({ description: 'Average seconds from the task opening to the decision.' }) avgDecisionSeconds!: number;
}

export class ApproversReportResponse extends ReportPeriodResponse {
  @ApiProperty({ description: 'How many people decided tasks in the period (the list holds at most Limit of them).' }) totalApprovers!: number;
  @ApiProperty({ type: [ApproverRow], description: 'Most decisions first.' }) approvers!: ApproverRow[];
}

export class BottleneckRow {
  @ApiProperty() definitionKey!: string;
  @ApiProperty() nodeKey!: string;
  @ApiProperty({ description: 'Tasks Pending now.' }) pendingTasks!: number;
  @ApiProperty({ type: String, nullable: true }) oldestPendingSince!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Seconds the oldest Pending task has waited, up to asOf.' }) maxWaitingSeconds!: number | null;
  @ApiProperty({ type: Number, nullable: true }) avgWaitingSeconds!: number | null;
  @ApiProperty({ description: 'Tasks of the node decided in the period.' }) decidedInPeriod!: number;
  @ApiProperty({ type: Number, nullable: true }) avgDecisionSeconds!: number | null;
}

export class BottlenecksReportResponse extends ReportPeriodResponse {
  @ApiProperty({ description: 'The instant waiting times are measured to (the database clock).' }) asOf!: string;
  @ApiProperty({ type: [BottleneckRow], description: 'Longest wait first, then slowest decisions (at most Limit).' }) nodes!: BottleneckRow[];
}

export class RejectTargetCount {
  @ApiProperty({ description: 'The node that opened next in the instance, `(end)` (the instance ended Rejected) or `(none)`.' }) target!: string;
  @ApiProperty() count!: number;
}

export class RejectReasonCount {
  @ApiProperty({ description: 'The rejection comment (trimmed, at most 200 characters).' }) reason!: string;
  @ApiProperty() count!: number;
}

export class RejectRow {
  @ApiProperty() definitionKey!: string;
  @ApiProperty() nodeKey!: string;
  @ApiProperty() rejections!: number;
  @ApiProperty({ description: 'Distinct instances rejected at the node.' }) instances!: number;
  @ApiProperty({ type: [RejectTargetCount] }) targets!: RejectTargetCount[];
  @ApiProperty({ type: [RejectReasonCount], description: 'The 5 most frequent comments.' }) reasons!: RejectReasonCount[];
}

export class RejectsReportResponse extends ReportPeriodResponse {
  @ApiProperty() totalRejections!: number;
  @ApiProperty({ type: [RejectRow], description: 'Most rejections first (at most Limit).' }) nodes!: RejectRow[];
}

export class TrendBucket {
  @ApiProperty({ description: 'The bucket’s calendar start (UTC).' }) start!: string;
  @ApiProperty() started!: number;
  @ApiProperty({ description: 'Instances that ended Approved or Rejected in the bucket.' }) completed!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Average seconds from start to end of the instances completed in the bucket; null when none.' })
  avgDurationSeconds!: number | null;
}

export class TrendsReportResponse extends ReportPeriodResponse {
  @ApiProperty({ enum: GRANULARITIES, description: 'The granularity used (an unrecognized one falls back to Daily).' }) granularity!: string;
  @ApiProperty({ type: [TrendBucket] }) buckets!: TrendBucket[];
}

const actionCounts = Object.fromEntries(DEPLOYMENT_ACTIONS.map((a) => [a, { type: 'integer' as const }]));

export class DeploymentCountsResponse {
  @ApiProperty() total!: number;
  @ApiProperty({ type: 'object', properties: actionCounts, description: 'Binding changes by action.' }) byAction!: Record<string, number>;
}

export class DeploymentCountsByDefinition extends DeploymentCountsResponse {
  @ApiProperty() definitionKey!: string;
  @ApiProperty({ description: 'The last change in the period.' }) lastAt!: string;
}

export class DeploymentsReportResponse extends ReportPeriodResponse {
  @ApiProperty({ type: DeploymentCountsResponse }) totals!: DeploymentCountsResponse;
  @ApiProperty({ type: [DeploymentCountsByDefinition], description: 'Most changes first (at most Limit).' }) definitions!: DeploymentCountsByDefinition[];
}
