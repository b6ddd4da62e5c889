import { z } from 'zod';
import { AuthorizationAction, rejectTargetSchema, startInstanceSchema, taskCommentSchema, WorkflowRpc } from '@lp/contracts';
import { defineTool } from './mcp-tool';

const workflowInstance = z.object({
  id: z.string().describe('instance id'),
  definitionKey: z.string(),
  definitionId: z.string().describe('the definition version the instance runs on'),
  businessKey: z.string(),
  initiator: z.string(),
  status: z.string().describe('Running, Suspended, Approved, Rejected, Withdrawn, Terminated or Cancelled'),
  variables: z.record(z.string(), z.unknown()),
  priority: z.number(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  endedAt: z.string().nullable(),
});

const workflowTask = z.object({
  id: z.string().describe('task id (use it with approve_workflow_task / reject_workflow_task)'),
  instanceId: z.string(),
  nodeKey: z.string().describe('the approval step of the definition'),
  visit: z.number(),
  assignee: z.string(),
  owner: z.string().nullable().describe('for a delegated task: who it returns to'),
  status: z.string().describe('Pending, Approved, Rejected, Transferred, Delegated or Cancelled'),
  comment: z.string().nullable(),
  readAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  createdAt: z.string(),
  definitionKey: z.string().optional(),
  businessKey: z.string().optional(),
  instanceStatus: z.string().optional(),
});

const taskDecision = z.object({
  task: workflowTask,
  nodeClosed: z.boolean().describe('whether this vote decided its approval step'),
  instance: workflowInstance,
  returnedTask: workflowTask.optional().describe('a delegate acted: the task is Pending again for its owner'),
});

const comment = taskCommentSchema.optional();
const TASK_ID = z.string().uuid().describe('a task id from list_my_workflow_tasks');

/** `list_my_workflow_tasks`: the caller's approval queue (`GET /api/workflow/tasks/todo`). */
export const listMyWorkflowTasksTool = defineTool({
  name: 'list_my_workflow_tasks',
  title: 'List my workflow tasks',
  description: 'Lists the approval tasks waiting for you (Pending), newest first, one page at a time.',
  input: z.strictObject({
    PageIndex: z.number().int().min(0).max(100_000).optional().describe('zero-based page, default 0'),
    PageSize: z.number().int().min(1).max(100).optional().describe('1–100, default 20'),
  }),
  output: z.object({ items: z.array(workflowTask), pageIndex: z.number(), pageSize: z.number(), totalCount: z.number() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  requires: [{ module: 'workflow', resource: 'task', action: AuthorizationAction.View }],
  argumentFields: { PageIndex: 'pageIndex', PageSize: 'pageSize' },
  run: (input, { call }) =>
    call(WorkflowRpc.todo, {
      ...(input.PageIndex === undefined ? {} : { pageIndex: input.PageIndex }),
      ...(input.PageSize === undefined ? {} : { pageSize: input.PageSize }),
    }),
});

/**
 * `approve_workflow_task`: one vote on one of the caller's tasks. Destructive in MCP's sense: a vote
 * cannot be taken back and may end the process, so clients should confirm it with their user.
 */
export const approveWorkflowTaskTool = defineTool({
  name: 'approve_workflow_task',
  title: 'Approve a workflow task',
  description: 'Approves one of your Pending approval tasks, with an optional comment. The vote is final; when it decides the step, the process moves on.',
  input: z.strictObject({
    TaskId: TASK_ID,
    Comment: comment.describe('why (kept with the task)'),
    Variables: z.record(z.string(), z.unknown()).optional().describe('process variables to merge before the process moves on'),
  }),
  output: taskDecision,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  requires: [{ module: 'workflow', resource: 'task', action: AuthorizationAction.Approve }],
  argumentFields: { TaskId: 'taskId', Comment: 'comment', Variables: 'variables' },
  run: (input, { call }) => call(WorkflowRpc.complete, { taskId: input.TaskId, comment: input.Comment, variables: input.Variables }),
});

/** `reject_workflow_task`: a rejection, to an allowed earlier step (`Target`) or, without one, of the request. */
export const rejectWorkflowTaskTool = defineTool({
  name: 'reject_workflow_task',
  title: 'Reject a workflow task',
  description:
    'Rejects one of your Pending approval tasks, with an optional comment. Without Target the request is rejected once the step’s mode says so; with Target it goes back to that earlier step, where the definition allows it.',
  input: z.strictObject({
    TaskId: TASK_ID,
    Comment: comment.describe('why (kept with the task)'),
    Target: rejectTargetSchema.optional().describe('an allowed earlier step key, or "start" to return it to its initiator'),
  }),
  output: taskDecision,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  requires: [{ module: 'workflow', resource: 'task', action: AuthorizationAction.Reject }],
  argumentFields: { TaskId: 'taskId', Comment: 'comment', Target: 'target' },
  run: (input, { call }) => call(WorkflowRpc.reject, { taskId: input.TaskId, comment: input.Comment, target: input.Target }),
});

const start = startInstanceSchema.shape;

/** `start_workflow`: idempotent by business key, as the route is: a second start answers the first instance. */
export const startWorkflowTool = defineTool({
  name: 'start_workflow',
  title: 'Start a workflow',
  description:
    'Starts an approval process on the active version of a workflow definition, for a business object named by BusinessKey. Starting again with the same BusinessKey returns the existing process (created: false).',
  input: z.strictObject({
    DefinitionKey: start.definitionKey.describe('the workflow definition key, e.g. contract-approval'),
    BusinessKey: start.businessKey.describe('the business object’s key, e.g. a matter number'),
    Variables: z.record(z.string(), z.unknown()).optional().describe('process variables the conditions and assignees read'),
    Priority: z.number().int().min(0).max(100).optional().describe('0–100, default 0'),
  }),
  output: z.object({ instance: workflowInstance, created: z.boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  requires: [{ module: 'workflow', resource: 'instance', action: AuthorizationAction.Create }],
  argumentFields: { DefinitionKey: 'definitionKey', BusinessKey: 'businessKey', Variables: 'variables', Priority: 'priority' },
  run: (input, { call }) =>
    call(WorkflowRpc.start, { definitionKey: input.DefinitionKey, businessKey: input.BusinessKey, variables: input.Variables, priority: input.Priority }),
});
