import { ApiProperty } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import { INSTANCE_STATUSES } from '../../store';
import type { InstanceStatus } from '../../store';
import { InstanceResponse } from '../../runtime/dto/runtime.responses';

/** One row of an instance's event log. */
export class InstanceEventResponse {
  @ApiProperty({ format: 'uuid' }) instanceId!: string;
  @ApiProperty() definitionKey!: string;
  @ApiProperty({ description: 'Position in the instance’s log, from 1, without gaps.' }) seq!: number;
  @ApiProperty({ description: 'The event’s id in its integration envelope (as webhook subscribers received it).' }) eventId!: string;
  @ApiProperty({ example: 'workflow.task.completed' }) type!: string;
  @ApiProperty() occurredAt!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Who caused it; null for the engine’s own steps (a task opening, a cc notice).' })
  actor!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) taskId!: string | null;
  @ApiProperty({ type: String, nullable: true }) nodeKey!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The actor’s comment on the task the event closed, or the operation’s reason.' })
  comment!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The event’s payload as published.' }) payload!: Record<string, unknown>;
}

export class InstanceEventPage extends PageMeta {
  @ApiProperty({ type: [InstanceEventResponse] }) items!: InstanceEventResponse[];
}

/** One human action of the activity trail. */
export class TrailEntryResponse {
  @ApiProperty() seq!: number;
  @ApiProperty({
    description:
      'What was done: approved, rejected, transferred, delegated, returned (a delegate acted), participants-added, proxy-completed, reminded, started, withdrawn, …',
  })
  action!: string;
  @ApiProperty({ example: 'workflow.task.transferred' }) type!: string;
  @ApiProperty({ type: String, nullable: true }) actor!: string | null;
  @ApiProperty() occurredAt!: string;
  @ApiProperty({ type: String, nullable: true }) comment!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uuid' }) taskId!: string | null;
  @ApiProperty({ type: String, nullable: true }) nodeKey!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The event’s payload (e.g. `to` of a transfer, `onBehalfOf` of a proxy vote).' })
  details!: Record<string, unknown>;
}

export class TrailPage extends PageMeta {
  @ApiProperty({ type: [TrailEntryResponse] }) items!: TrailEntryResponse[];
}

export class VoteResponse {
  @ApiProperty({ format: 'uuid' }) taskId!: string;
  @ApiProperty() by!: string;
  @ApiProperty({ enum: ['Approved', 'Rejected'] }) decision!: 'Approved' | 'Rejected';
  @ApiProperty() at!: string;
  @ApiProperty({ type: String, nullable: true }) comment!: string | null;
}

/** One visit of an approval node: its votes, and the vote that decided it. */
export class NodeDecisionResponse {
  @ApiProperty() nodeKey!: string;
  @ApiProperty() visit!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['Approved', 'Rejected'],
    description: 'Null while open, or when the visit ended without a decision (reset, withdraw, …).',
  })
  outcome!: 'Approved' | 'Rejected' | null;
  @ApiProperty({ type: String, nullable: true, description: 'The voter whose vote decided the node visit.' }) decidedBy!: string | null;
  @ApiProperty({ type: String, nullable: true }) decidedAt!: string | null;
  @ApiProperty({ type: [VoteResponse], description: 'The votes cast, in order (a delegate’s advice is not a vote).' }) votes!: VoteResponse[];
}

export class TaskCountsResponse {
  @ApiProperty() total!: number;
  @ApiProperty() Pending!: number;
  @ApiProperty() Approved!: number;
  @ApiProperty() Rejected!: number;
  @ApiProperty() Transferred!: number;
  @ApiProperty() Delegated!: number;
  @ApiProperty() Cancelled!: number;
}

export class HistorySummaryResponse {
  @ApiProperty({ type: InstanceResponse }) instance!: InstanceResponse;
  @ApiProperty({ description: 'Moved out of the hot tables (POST …/archive).' }) archived!: boolean;
  @ApiProperty({ type: String, nullable: true }) archivedAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) archivedBy!: string | null;
  @ApiProperty() startedAt!: string;
  @ApiProperty({ type: String, nullable: true }) endedAt!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'From start to end in milliseconds; null while the instance has not ended.' })
  durationMs!: number | null;
  @ApiProperty({ type: TaskCountsResponse }) tasks!: TaskCountsResponse;
  @ApiProperty({ type: [String], description: 'The approval nodes waiting now (`start` while returned to the initiator); empty once ended.' })
  currentNodes!: string[];
  @ApiProperty({ description: 'Rows in the instance’s event log.' }) events!: number;
  @ApiProperty({ type: [NodeDecisionResponse], description: 'Every visit of an approval node that opened tasks, in the order they opened.' })
  nodes!: NodeDecisionResponse[];
}

export class BusinessKeyStatusResponse {
  @ApiProperty() businessKey!: string;
  @ApiProperty({ enum: INSTANCE_STATUSES, description: 'The newest instance’s status.' }) status!: InstanceStatus;
  @ApiProperty({ type: InstanceResponse, description: 'The newest instance (by start) of the key, across definitions.' }) latest!: InstanceResponse;
  @ApiProperty({ description: 'Instances of the key, hot and archived.' }) instances!: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'Instances by status (statuses with none are left out).' })
  byStatus!: Partial<Record<InstanceStatus, number>>;
  @ApiProperty({ type: [String] }) definitionKeys!: string[];
}

export class RetentionResponse {
  @ApiProperty({ description: 'Days archived history is kept after its instance ended: the tenant’s setting, else the default.' }) retentionDays!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'The tenant’s own setting; null when the default applies.' }) tenantRetentionDays!: number | null;
  @ApiProperty({ description: 'WORKFLOW_HISTORY_RETENTION_DAYS.' }) defaultRetentionDays!: number;
}
