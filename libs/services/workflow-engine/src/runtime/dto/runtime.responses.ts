import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import { INSTANCE_STATUSES, TASK_STATUSES } from '../../store';
import type { InstanceStatus, TaskStatus } from '../../store';

export class InstanceResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() definitionKey!: string;
  @ApiProperty({ format: 'uuid', description: 'The definition version the instance runs on (fixed at start).' }) definitionId!: string;
  @ApiProperty() businessKey!: string;
  @ApiProperty() initiator!: string;
  @ApiProperty({ enum: INSTANCE_STATUSES }) status!: InstanceStatus;
  @ApiProperty({ type: 'object', additionalProperties: true }) variables!: Record<string, unknown>;
  @ApiProperty() priority!: number;
  @ApiProperty({ description: 'Bumped by every change of the instance.' }) version!: number;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
  @ApiProperty({ type: String, nullable: true }) endedAt!: string | null;
}

export class TaskResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) instanceId!: string;
  @ApiProperty() nodeKey!: string;
  @ApiProperty() visit!: number;
  @ApiProperty() assignee!: string;
  @ApiProperty({ type: String, nullable: true, description: 'For a delegate’s task: the assignee it returns to once the delegate has acted.' })
  owner!: string | null;
  @ApiProperty({ enum: TASK_STATUSES }) status!: TaskStatus;
  @ApiProperty({ type: String, nullable: true }) comment!: string | null;
  @ApiProperty({ type: String, nullable: true }) readAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) decidedAt!: string | null;
  @ApiProperty({ type: String, nullable: true }) decidedBy!: string | null;
  @ApiProperty() createdAt!: string;
  @ApiPropertyOptional() definitionKey?: string;
  @ApiPropertyOptional() businessKey?: string;
  @ApiPropertyOptional({ enum: INSTANCE_STATUSES }) instanceStatus?: InstanceStatus;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'The node’s name in the instance’s version (null: unnamed, or the version is gone).' })
  nodeName?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'The definition’s name in the instance’s version.' })
  definitionName?: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'The version number the instance runs on.' })
  definitionVersion?: number | null;
}

export class TaskPage extends PageMeta {
  @ApiProperty({ type: [TaskResponse] }) items!: TaskResponse[];
}

export class TaskCountResponse {
  @ApiProperty() count!: number;
}

export class TaskDecisionResponse {
  @ApiProperty({ type: TaskResponse }) task!: TaskResponse;
  @ApiProperty({ description: 'Whether this vote decided (closed) its approval node.' }) nodeClosed!: boolean;
  @ApiProperty({ type: InstanceResponse }) instance!: InstanceResponse;
  @ApiPropertyOptional({ type: TaskResponse, description: 'A delegate acted: the task, Pending again for its owner (the delegate’s decision is not a vote).' })
  returnedTask?: TaskResponse;
}

export class ParticipantsAddedResponse {
  @ApiProperty({ type: TaskResponse, description: 'The caller’s task after the operation (Delegated for before, Approved for after, Pending for parallel).' })
  task!: TaskResponse;
  @ApiProperty({ type: [TaskResponse], description: 'The tasks opened now (sequential: the first new signer only).' }) opened!: TaskResponse[];
  @ApiProperty({ type: InstanceResponse }) instance!: InstanceResponse;
}

export class ProgressNode {
  @ApiProperty() key!: string;
  @ApiProperty() kind!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ enum: ['not-reached', 'passed', 'waiting'] }) state!: 'not-reached' | 'passed' | 'waiting';
  @ApiProperty({ type: [TaskResponse] }) tasks!: TaskResponse[];
}

export class ProgressResponse {
  @ApiProperty({ type: InstanceResponse }) instance!: InstanceResponse;
  @ApiProperty({ description: 'A rejection sent the instance back to its initiator: nothing is open until they resubmit.' }) returnedToInitiator!: boolean;
  @ApiProperty({ type: [ProgressNode] }) nodes!: ProgressNode[];
}

export class RemindResponse {
  @ApiProperty({ description: 'How many open tasks were reminded (one `workflow.task.reminded` each).' }) reminded!: number;
}

export class BatchCompleteResult {
  @ApiProperty({ format: 'uuid' }) taskId!: string;
  @ApiProperty({ enum: ['completed', 'failed'] }) outcome!: 'completed' | 'failed';
  @ApiPropertyOptional({ type: TaskResponse, description: 'completed: the task, Approved, `decidedBy` = the caller.' }) task?: TaskResponse;
  @ApiPropertyOptional({ description: 'failed: the HTTP status the task alone would have had.' }) status?: number;
  @ApiPropertyOptional({
    description:
      'failed: the problem code (NotFound, Workflow.Task.NotPending, Workflow.InvalidState, Workflow.Runtime.OperationNotAllowed, Workflow.Runtime.ProxyWouldDecide).',
  })
  code?: string;
  @ApiPropertyOptional() detail?: string;
}

export class BatchCompleteResponse {
  @ApiProperty({ type: [BatchCompleteResult], description: 'One per task id, in the request’s order.' }) results!: BatchCompleteResult[];
  @ApiProperty() completed!: number;
  @ApiProperty() failed!: number;
}
