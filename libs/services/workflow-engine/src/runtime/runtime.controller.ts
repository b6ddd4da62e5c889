import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthorizationAction, TrustedCaller } from '@lp/contracts';
import { Authorize } from '@lp/authz-guard';
import { Caller } from '@lp/platform/auth';
import { SchemaValidationPipe, TimeoutPolicy } from '@lp/platform/http';
import {
  ChangePriority,
  changePrioritySchema,
  ChangePriorityDto,
  CompleteTask,
  completeTaskSchema,
  CompleteTaskDto,
  InstanceOperation,
  instanceOperationSchema,
  InstanceOperationDto,
  RejectTask,
  Resubmit,
  resubmitSchema,
  ResubmitDto,
  rejectTaskSchema,
  RejectTaskDto,
  StartInstance,
  startInstanceSchema,
  StartInstanceDto,
  TransferTask,
  transferTaskSchema,
  TransferTaskDto,
  AddParticipant,
  addParticipantSchema,
  AddParticipantDto,
  DelegateTask,
  delegateTaskSchema,
  DelegateTaskDto,
  BatchComplete,
  batchCompleteSchema,
  BatchCompleteDto,
  ResetInstance,
  resetInstanceSchema,
  ResetInstanceDto,
  StartAtNode,
  startAtNodeSchema,
  StartAtNodeDto,
  TransferApplicant,
  transferApplicantSchema,
  TransferApplicantDto,
} from './dto/runtime.dto';
import {
  BatchCompleteResponse,
  InstanceResponse,
  ParticipantsAddedResponse,
  ProgressResponse,
  RemindResponse,
  TaskDecisionResponse,
  TaskResponse,
} from './dto/runtime.responses';
import { InstanceFactsLoader, TaskFactsLoader } from './runtime-facts.loaders';
import { InstanceOperationName, RuntimeService } from './runtime.service';

export const INSTANCE = { module: 'workflow', resource: 'instance' } as const;
export const TASK = { module: 'workflow', resource: 'task' } as const;
const DENIED = ApiForbiddenResponse({
  description: 'Authorization.Denied (no permission, or not the task’s assignee), or Feature.Disabled (`workflow.runtime` off); nothing is written.',
});
const CONFLICT = ApiConflictResponse({
  description: 'problem+json with title and detail: Workflow.Task.NotPending (decided, or its node closed by a concurrent vote) or Workflow.InvalidState.',
});

/** What every instance operation declares besides its permission. */
function INSTANCE_OPERATION_DOCS(): MethodDecorator {
  return applyDecorators(
    ApiBody({ type: InstanceOperationDto, required: false }),
    ApiOkResponse({ type: InstanceResponse }),
    ApiNotFoundResponse({ description: 'NotFound: no such instance in the caller’s tenant.' }),
    ApiConflictResponse({
      description:
        'problem+json with title and detail: Workflow.InvalidState (the state rule) or Workflow.ConcurrencyConflict (`version` is not the current one).',
    }),
    ApiForbiddenResponse({ description: 'Authorization.Denied (no permission; withdraw: not the initiator) or Feature.Disabled; nothing is written.' }),
  );
}
const INSTANCE_OPERATION = INSTANCE_OPERATION_DOCS();

/**
 * Workflow runtime under /api/workflow/runtime (spec §4 "Workflow runtime", docs/runtime.md). Writes
 * are `WorkflowCommand` and `userPolicy`-limited (the platform's throttler limits every POST); the
 * `workflow.runtime` gate applies to every one of them; the actor is always the token's caller.
 */
@ApiTags('Workflow-Runtime')
@ApiBearerAuth()
@Controller('api/workflow/runtime')
export class RuntimeController {
  constructor(private readonly runtime: RuntimeService) {}

  @Post('instances')
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Create })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Start an instance on the definition’s active version; the same business key answers the existing instance (200).' })
  @ApiBody({ type: StartInstanceDto })
  @ApiCreatedResponse({ type: InstanceResponse, description: 'Started; its first tasks are open.' })
  @ApiOkResponse({ type: InstanceResponse, description: 'An instance with this business key exists for the definition already: that one, unchanged.' })
  @ApiBadRequestResponse({ description: 'Validation.Failed.' })
  @ApiNotFoundResponse({ description: 'Workflow.Definition.NotActive: no active version of the key in the tenant.' })
  @ApiUnprocessableEntityResponse({ description: 'Workflow.Runtime.AssigneeEmpty or ConditionFailed: the walk cannot go on; nothing is written.' })
  @DENIED
  async start(
    @Caller() caller: TrustedCaller,
    @Body(new SchemaValidationPipe(startInstanceSchema)) body: StartInstance,
    @Res({ passthrough: true }) res: Response,
  ): Promise<InstanceResponse> {
    const { instance, created } = await this.runtime.start(caller, body);
    res.status(created ? 201 : 200);
    return instance;
  }

  @Get('instances/:id/progress')
  @Authorize({ ...INSTANCE, action: AuthorizationAction.View, facts: InstanceFactsLoader })
  @ApiOperation({ summary: 'Every node of the instance’s version with its state and its tasks.' })
  @ApiOkResponse({ type: ProgressResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such instance in the caller’s tenant.' })
  @DENIED
  progress(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<ProgressResponse> {
    return this.runtime.progress(caller, id);
  }

  @Post('tasks/:taskId/complete')
  @HttpCode(200)
  @Authorize({ ...TASK, action: AuthorizationAction.Approve, facts: TaskFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Approve the task (assignee only); when the vote decides its node, the flow moves on.' })
  @ApiBody({ type: CompleteTaskDto, required: false })
  @ApiOkResponse({ type: TaskDecisionResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such task in the caller’s tenant.' })
  @CONFLICT
  @DENIED
  complete(
    @Caller() caller: TrustedCaller,
    @Param('taskId') taskId: string,
    @Body(new SchemaValidationPipe(completeTaskSchema)) body: CompleteTask,
  ): Promise<TaskDecisionResponse> {
    return this.runtime.decide(caller, taskId, { decision: 'approve', ...body });
  }

  @Post('tasks/:taskId/reject')
  @HttpCode(200)
  @Authorize({ ...TASK, action: AuthorizationAction.Reject, facts: TaskFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Reject the task (assignee only): back to `target` or, without one, the instance is rejected once the mode says so.' })
  @ApiBody({ type: RejectTaskDto, required: false })
  @ApiOkResponse({ type: TaskDecisionResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such task in the caller’s tenant.' })
  @ApiUnprocessableEntityResponse({ description: 'Workflow.Runtime.RejectTargetNotAllowed; nothing is written.' })
  @CONFLICT
  @DENIED
  reject(
    @Caller() caller: TrustedCaller,
    @Param('taskId') taskId: string,
    @Body(new SchemaValidationPipe(rejectTaskSchema)) body: RejectTask,
  ): Promise<TaskDecisionResponse> {
    return this.runtime.decide(caller, taskId, { decision: 'reject', ...body });
  }

  @Post('tasks/:taskId/transfer')
  @HttpCode(200)
  @Authorize({ ...TASK, action: AuthorizationAction.Approve, facts: TaskFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Hand the task to another user (assignee only, when the node allows transfer): the task ends Transferred, a new one opens.' })
  @ApiBody({ type: TransferTaskDto })
  @ApiOkResponse({ type: TaskResponse, description: 'The new task, Pending for `to`.' })
  @ApiBadRequestResponse({ description: 'Validation.Failed.' })
  @ApiNotFoundResponse({ description: 'NotFound: no such task in the caller’s tenant.' })
  @ApiUnprocessableEntityResponse({
    description: 'Workflow.Runtime.OperationNotAllowed: the node does not allow transfer, or `to` has a seat already; nothing is written.',
  })
  @CONFLICT
  @DENIED
  transfer(
    @Caller() caller: TrustedCaller,
    @Param('taskId') taskId: string,
    @Body(new SchemaValidationPipe(transferTaskSchema)) body: TransferTask,
  ): Promise<TaskResponse> {
    return this.runtime.transfer(caller, taskId, body);
  }

  @Post('tasks/:taskId/delegate')
  @HttpCode(200)
  @Authorize({ ...TASK, action: AuthorizationAction.Approve, facts: TaskFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({
    summary:
      'Let another user act for the assignee (when the node allows delegate): the task ends Delegated, a task opens for `to`; once they act it returns to the assignee.',
  })
  @ApiBody({ type: DelegateTaskDto })
  @ApiOkResponse({ type: TaskResponse, description: 'The delegate’s task, Pending for `to`, `owner` = the caller.' })
  @ApiBadRequestResponse({ description: 'Validation.Failed.' })
  @ApiNotFoundResponse({ description: 'NotFound: no such task in the caller’s tenant.' })
  @ApiUnprocessableEntityResponse({
    description:
      'Workflow.Runtime.OperationNotAllowed: the node does not allow delegate, `to` is the caller or has a seat already, or the task is a delegate’s; nothing is written.',
  })
  @CONFLICT
  @DENIED
  delegate(
    @Caller() caller: TrustedCaller,
    @Param('taskId') taskId: string,
    @Body(new SchemaValidationPipe(delegateTaskSchema)) body: DelegateTask,
  ): Promise<TaskResponse> {
    return this.runtime.delegate(caller, taskId, body);
  }

  @Post('tasks/:taskId/add-participant')
  @HttpCode(200)
  @Authorize({ ...TASK, action: AuthorizationAction.Approve, facts: TaskFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({
    summary: 'Add signers to the task’s approval (when the node allows addSigner): in parallel, or before / after the caller on a sequential node.',
  })
  @ApiBody({ type: AddParticipantDto })
  @ApiOkResponse({ type: ParticipantsAddedResponse })
  @ApiBadRequestResponse({ description: 'Validation.Failed.' })
  @ApiNotFoundResponse({ description: 'NotFound: no such task in the caller’s tenant.' })
  @ApiUnprocessableEntityResponse({
    description:
      'Workflow.Runtime.OperationNotAllowed: the node does not allow addSigner, the position does not fit its mode, a subject is the caller or has a seat already; nothing is written.',
  })
  @CONFLICT
  @DENIED
  addParticipant(
    @Caller() caller: TrustedCaller,
    @Param('taskId') taskId: string,
    @Body(new SchemaValidationPipe(addParticipantSchema)) body: AddParticipant,
  ): Promise<ParticipantsAddedResponse> {
    return this.runtime.addParticipant(caller, taskId, body);
  }

  // ---- instance operations -------------------------------------------------------------------

  @Post('instances/:id/withdraw')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Update, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Withdraw a Running instance (its initiator only): Withdrawn, open tasks cancelled.' })
  @INSTANCE_OPERATION
  withdraw(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(instanceOperationSchema)) body: InstanceOperation,
  ): Promise<InstanceResponse> {
    return this.operate(caller, id, 'withdraw', body);
  }

  @Post('instances/:id/terminate')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Manage, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Terminate a Running or Suspended instance (audited): Terminated, open tasks cancelled.' })
  @INSTANCE_OPERATION
  terminate(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(instanceOperationSchema)) body: InstanceOperation,
  ): Promise<InstanceResponse> {
    return this.operate(caller, id, 'terminate', body);
  }

  @Post('instances/:id/cancel')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Manage, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Cancel a Running or Suspended instance (audited): Cancelled, open tasks cancelled.' })
  @INSTANCE_OPERATION
  cancel(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(instanceOperationSchema)) body: InstanceOperation,
  ): Promise<InstanceResponse> {
    return this.operate(caller, id, 'cancel', body);
  }

  @Post('instances/:id/suspend')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Manage, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Suspend a Running instance (audited): its tasks stay open but cannot be decided until it is resumed.' })
  @INSTANCE_OPERATION
  suspend(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(instanceOperationSchema)) body: InstanceOperation,
  ): Promise<InstanceResponse> {
    return this.operate(caller, id, 'suspend', body);
  }

  @Post('instances/:id/resume')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Manage, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Resume a Suspended instance (audited): Running again.' })
  @INSTANCE_OPERATION
  resume(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(instanceOperationSchema)) body: InstanceOperation,
  ): Promise<InstanceResponse> {
    return this.operate(caller, id, 'resume', body);
  }

  @Post('instances/:id/resubmit')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Update, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Resubmit an instance a rejection returned to its initiator (initiator only): the flow starts again from the first node.' })
  @ApiBody({ type: ResubmitDto, required: false })
  @ApiOkResponse({ type: InstanceResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such instance in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'problem+json: Workflow.InvalidState (not returned to the initiator) or Workflow.ConcurrencyConflict.' })
  @DENIED
  resubmit(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(resubmitSchema)) body: Resubmit,
  ): Promise<InstanceResponse> {
    return this.runtime.resubmit(caller, id, body);
  }

  @Post('instances/:id/priority')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Update, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Change the priority (0–100) of a Running or Suspended instance (its initiator only).' })
  @ApiBody({ type: ChangePriorityDto })
  @ApiOkResponse({ type: InstanceResponse })
  @ApiBadRequestResponse({ description: 'Validation.Failed.' })
  @ApiNotFoundResponse({ description: 'NotFound: no such instance in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'problem+json: Workflow.InvalidState or Workflow.ConcurrencyConflict.' })
  @DENIED
  priority(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(changePrioritySchema)) body: ChangePriority,
  ): Promise<InstanceResponse> {
    return this.runtime.changePriority(caller, id, body);
  }

  @Post('instances/:id/remind')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Update, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Remind the assignees of a Running instance’s open tasks (its initiator only): one workflow.task.reminded per task.' })
  @ApiOkResponse({ type: RemindResponse })
  @ApiNotFoundResponse({ description: 'NotFound: no such instance in the caller’s tenant.' })
  @ApiConflictResponse({ description: 'problem+json: Workflow.InvalidState.' })
  @DENIED
  remind(@Caller() caller: TrustedCaller, @Param('id') id: string): Promise<RemindResponse> {
    return this.runtime.remind(caller, id);
  }

  // ---- administrative operations (`workflow.instance.manage`, audited in workflow.admin_audit) -------

  @Post('instances/start-at-node')
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Manage })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({
    summary:
      'Start an instance on the active version placed at an approval node (audited); the caller is the initiator; the same business key answers the existing instance (200).',
  })
  @ApiBody({ type: StartAtNodeDto })
  @ApiCreatedResponse({ type: InstanceResponse, description: 'Started; the node’s tasks are open.' })
  @ApiOkResponse({ type: InstanceResponse, description: 'An instance with this business key exists for the definition already: that one, unchanged.' })
  @ApiBadRequestResponse({ description: 'Validation.Failed.' })
  @ApiNotFoundResponse({ description: 'Workflow.Definition.NotActive: no active version of the key in the tenant.' })
  @ApiUnprocessableEntityResponse({
    description: 'Workflow.Runtime.NodeNotAllowed (no such node, or not an approval), AssigneeEmpty or ConditionFailed; nothing is written.',
  })
  @DENIED
  async startAtNode(
    @Caller() caller: TrustedCaller,
    @Body(new SchemaValidationPipe(startAtNodeSchema)) body: StartAtNode,
    @Res({ passthrough: true }) res: Response,
  ): Promise<InstanceResponse> {
    const { instance, created } = await this.runtime.startAtNode(caller, body);
    res.status(created ? 201 : 200);
    return instance;
  }

  @Post('tasks/batch-complete')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Manage })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({
    summary:
      'Proxy completion (audited): approve up to 100 tasks on behalf of their assignees, each in its own transaction; a vote that would decide its node is refused, so the process never moves past a node.',
  })
  @ApiBody({ type: BatchCompleteDto })
  @ApiOkResponse({ type: BatchCompleteResponse, description: 'One result per task: completed, or the problem code of that task alone.' })
  @ApiBadRequestResponse({ description: 'Validation.Failed (1–100 distinct UUIDs).' })
  @DENIED
  batchComplete(@Caller() caller: TrustedCaller, @Body(new SchemaValidationPipe(batchCompleteSchema)) body: BatchComplete): Promise<BatchCompleteResponse> {
    return this.runtime.batchComplete(caller, body);
  }

  @Post('instances/:id/reset')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Manage, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({ summary: 'Move a Running instance to an approval node of its version (audited): open tasks cancelled, the node opens anew (visit + 1).' })
  @ApiBody({ type: ResetInstanceDto })
  @ApiOkResponse({ type: InstanceResponse })
  @ApiBadRequestResponse({ description: 'Validation.Failed.' })
  @ApiNotFoundResponse({ description: 'NotFound: no such instance in the caller’s tenant.' })
  @ApiUnprocessableEntityResponse({ description: 'Workflow.Runtime.NodeNotAllowed, AssigneeEmpty or ConditionFailed; nothing is written.' })
  @ApiConflictResponse({ description: 'problem+json: Workflow.InvalidState (not Running) or Workflow.ConcurrencyConflict.' })
  @DENIED
  reset(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(resetInstanceSchema)) body: ResetInstance,
  ): Promise<InstanceResponse> {
    return this.runtime.reset(caller, id, body);
  }

  @Post('instances/:id/transfer-applicant')
  @HttpCode(200)
  @Authorize({ ...INSTANCE, action: AuthorizationAction.Manage, facts: InstanceFactsLoader })
  @TimeoutPolicy('WorkflowCommand')
  @ApiOperation({
    summary:
      'Make `to` the initiator of a Running or Suspended instance (audited); the old applicant’s seats at waiting approvals resolved from `initiator` pass to `to`.',
  })
  @ApiBody({ type: TransferApplicantDto })
  @ApiOkResponse({ type: InstanceResponse })
  @ApiBadRequestResponse({ description: 'Validation.Failed.' })
  @ApiNotFoundResponse({ description: 'NotFound: no such instance in the caller’s tenant.' })
  @ApiUnprocessableEntityResponse({
    description:
      'Workflow.Runtime.OperationNotAllowed: `to` is the initiator already, or has a seat where the applicant’s would pass to them; nothing is written.',
  })
  @ApiConflictResponse({ description: 'problem+json: Workflow.InvalidState (ended) or Workflow.ConcurrencyConflict.' })
  @DENIED
  transferApplicant(
    @Caller() caller: TrustedCaller,
    @Param('id') id: string,
    @Body(new SchemaValidationPipe(transferApplicantSchema)) body: TransferApplicant,
  ): Promise<InstanceResponse> {
    return this.runtime.transferApplicant(caller, id, body);
  }

  private operate(caller: TrustedCaller, id: string, operation: InstanceOperationName, body: InstanceOperation): Promise<InstanceResponse> {
    return this.runtime.operate(caller, id, operation, body);
  }
}
