import { z } from 'zod';
import { rpcContract } from '../messaging/rpc-contract';
import type { Page } from '../decision-audit';
import { PERMISSION_REQUEST_DEFINITION_KEY } from './permission-request-flow';

const WORKFLOW_ENGINE = 'workflow-engine';

/** Definition keys: lower-case kebab, 1–64 characters (the definitions routes' rule). */
export const DEFINITION_KEY_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** The longest comment a task decision keeps (spec §8.3: a number we chose). */
export const MAX_WORKFLOW_COMMENT_LENGTH = 2000;

const variables = z.record(z.string(), z.unknown());
/** A decision's comment (complete, reject). */
export const taskCommentSchema = z.string().max(MAX_WORKFLOW_COMMENT_LENGTH);
/** A rejection's target: an allowed earlier approval node key, or `start`. */
export const rejectTargetSchema = z.string().min(1).max(64);
const comment = taskCommentSchema;

/**
 * Definitions the platform starts itself, on a business event, never a client: a client starting one
 * first would take its business key (start is idempotent by it) from the event's own start.
 */
export const PLATFORM_STARTED_DEFINITION_KEYS: ReadonlySet<string> = new Set([PERMISSION_REQUEST_DEFINITION_KEY]);

/** `POST /runtime/instances` and `workflow.instances.start`: one schema for both doors. */
export const startInstanceSchema = z.strictObject({
  definitionKey: z
    .string()
    .regex(DEFINITION_KEY_PATTERN)
    .max(64)
    .refine((key) => !PLATFORM_STARTED_DEFINITION_KEYS.has(key), {
      message: 'is started by the platform itself (when its business event happens), not by clients',
    }),
  businessKey: z.string().trim().min(1).max(200),
  variables: variables.optional().transform((v) => v ?? {}),
  priority: z
    .number()
    .int()
    .min(0)
    .max(100)
    .optional()
    .transform((p) => p ?? 0),
});
export type StartInstance = z.output<typeof startInstanceSchema>;

const completeFields = { comment: comment.optional(), variables: variables.optional() };
const rejectFields = { comment: comment.optional(), target: rejectTargetSchema.optional() };

/** The complete route's body (may be absent). */
export const completeTaskSchema = z
  .strictObject(completeFields)
  .optional()
  .transform((b) => b ?? {});
export type CompleteTask = z.output<typeof completeTaskSchema>;

/** The reject route's body (may be absent). */
export const rejectTaskSchema = z
  .strictObject(rejectFields)
  .optional()
  .transform((b) => b ?? {});
export type RejectTask = z.output<typeof rejectTaskSchema>;

const taskId = z.string().uuid();

/** A workflow instance as the runtime answers it (`InstanceResponse` of the HTTP routes). */
export interface WorkflowInstanceView {
  id: string;
  definitionKey: string;
  definitionId: string;
  businessKey: string;
  initiator: string;
  status: string;
  variables: Record<string, unknown>;
  priority: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  endedAt: string | null;
}

/** A task as the runtime answers it (`TaskResponse`); the lists add the instance's keys and status. */
export interface WorkflowTaskView {
  id: string;
  instanceId: string;
  nodeKey: string;
  visit: number;
  assignee: string;
  owner: string | null;
  status: string;
  comment: string | null;
  readAt: string | null;
  decidedAt: string | null;
  decidedBy: string | null;
  createdAt: string;
  definitionKey?: string;
  businessKey?: string;
  instanceStatus?: string;
  /** In the task lists and a task read by id: the node's and the definition's names, the version number. */
  nodeName?: string | null;
  definitionName?: string | null;
  definitionVersion?: number | null;
}

/** A vote's answer: the task, whether it closed its node, the instance after it (and a delegate's returned task). */
export interface WorkflowTaskDecisionView {
  task: WorkflowTaskView;
  nodeClosed: boolean;
  instance: WorkflowInstanceView;
  returnedTask?: WorkflowTaskView;
}

/**
 * workflow-engine's runtime over RPC (for the MCP gateway's workflow tools): each handler runs the
 * same `@Authorize` check (as the caller in the message; a task's facts loaded server-side), the
 * `workflow.runtime` gate on writes, the same validation and the same service method as its route.
 */
export const WorkflowRpc = {
  /** The caller's Pending tasks, newest first (`GET /api/workflow/tasks/todo`). */
  todo: rpcContract<Page<WorkflowTaskView>>()({
    pattern: 'workflow.tasks.todo',
    service: WORKFLOW_ENGINE,
    payload: z.strictObject({ pageIndex: z.number().int().min(0).max(100_000).default(0), pageSize: z.number().int().min(1).max(100).default(20) }),
  }),
  /** Approves one of the caller's tasks (`POST /api/workflow/runtime/tasks/{taskId}/complete`). */
  complete: rpcContract<WorkflowTaskDecisionView>()({
    pattern: 'workflow.tasks.complete',
    service: WORKFLOW_ENGINE,
    payload: z.strictObject({ taskId, ...completeFields }),
  }),
  /** Rejects one of the caller's tasks (`POST /api/workflow/runtime/tasks/{taskId}/reject`). */
  reject: rpcContract<WorkflowTaskDecisionView>()({
    pattern: 'workflow.tasks.reject',
    service: WORKFLOW_ENGINE,
    payload: z.strictObject({ taskId, ...rejectFields }),
  }),
  /** Starts an instance, idempotently by business key (`POST /api/workflow/runtime/instances`). */
  start: rpcContract<{ instance: WorkflowInstanceView; created: boolean }>()({
    pattern: 'workflow.instances.start',
    service: WORKFLOW_ENGINE,
    payload: startInstanceSchema,
  }),
} as const;
