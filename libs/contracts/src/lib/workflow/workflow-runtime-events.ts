import { z } from 'zod';
import { eventContract, eventFamily } from '../messaging/event-contract';

const id = z.string().min(1);
const uuid = z.string().uuid();
const decision = z.enum(['Approved', 'Rejected']);

/** What every instance event names. */
const instanceRef = z.object({ tenantId: id, instanceId: uuid });
/** What every task event names. */
const taskRef = instanceRef.extend({ taskId: uuid, nodeKey: id });

const instanceStarted = instanceRef.extend({ definitionKey: id, definitionId: uuid, businessKey: id, initiator: id });
const taskCreated = taskRef.extend({ visit: z.number().int().positive(), assignee: id });
const taskCompleted = taskRef.extend({ decision, decidedBy: id });
/** `decidedBy`: whose vote ended the instance; null (or absent, from older publishers) when the walk ended it without a vote. */
const instanceCompleted = instanceRef.extend({ definitionKey: id, businessKey: id, status: decision, decidedBy: id.nullable().optional() });
const ccNotified = instanceRef.extend({ nodeKey: id, recipients: z.array(z.string()) });
const instanceStateChanged = instanceRef.extend({ definitionKey: id, businessKey: id, from: id, to: id, by: id, reason: z.string().nullable() });
const priorityChanged = instanceRef.extend({ from: z.number().int(), to: z.number().int(), by: id });
const taskReminded = taskRef.extend({ assignee: id, by: id });
/** A task closed and a new one opened on its seat for `to`: a transfer, a delegation, or the seat's return to its owner. */
const taskHandedOver = taskRef.extend({ newTaskId: uuid, from: id, to: id });
const taskReturned = taskHandedOver.extend({ decision });
const participantsAdded = taskRef.extend({ position: z.enum(['before', 'after', 'parallel']), subjects: z.array(id).min(1), by: id });
/** The administrative operations (`workflow.instance.manage`, audited): who did it and why ride along. */
const startedAtNode = instanceRef.extend({ definitionKey: id, businessKey: id, nodeKey: id, by: id });
/** `from`: the nodes that were open (`start` when the instance was returned to its initiator), `to`: the node opened anew. */
const instanceReset = instanceRef.extend({ definitionKey: id, businessKey: id, from: z.array(id), to: id, by: id, reason: z.string().nullable() });
/** `reassignedTasks`: the open tasks of the old applicant's `initiator` seats that passed to `to` (each also a `workflow.task.transferred`). */
const applicantTransferred = instanceStateChanged.extend({ reassignedTasks: z.array(uuid) });
/** A vote cast by `by` on behalf of the task's assignee (batch-complete); the task's `workflow.task.completed` names `by` as `decidedBy`. */
const taskProxyCompleted = taskRef.extend({ onBehalfOf: id, by: id });
/**
 * A node timeout fired on a task (docs/timeouts.md): `action` from the definition, `outcome` what it
 * did (a fallback to `reminded` when a hand-over found nobody to take the seat; `returned` when an
 * auto vote on a delegate's task sent the seat back to its owner), `to`/`newTaskId` for a hand-over.
 */
const taskTimedOut = taskRef.extend({
  visit: z.number().int().positive(),
  assignee: id,
  action: z.enum(['auto-approve', 'auto-reject', 'remind', 'transfer', 'escalate']),
  outcome: z.enum(['reminded', 'approved', 'rejected', 'returned', 'transferred']),
  dueAt: z.iso.datetime({ offset: true }),
  to: id.nullable(),
  newTaskId: uuid.nullable(),
  by: id,
});
export type InstanceStartedPayload = z.infer<typeof instanceStarted>;
export type InstanceStateChangedPayload = z.infer<typeof instanceStateChanged>;
export type TaskCompletedPayload = z.infer<typeof taskCompleted>;
export type CcNotifiedPayload = z.infer<typeof ccNotified>;
export type TaskCreatedPayload = z.infer<typeof taskCreated>;
export type InstanceCompletedPayload = z.infer<typeof instanceCompleted>;
export type InstanceResetPayload = z.infer<typeof instanceReset>;
export type ApplicantTransferredPayload = z.infer<typeof applicantTransferred>;
export type TaskTimedOutPayload = z.infer<typeof taskTimedOut>;

/**
 * The `workflow.instance.*`, `workflow.task.*` and `workflow.cc.*` events workflow-engine's runtime
 * publishes through its outbox, in the transaction of the change (libs/services/workflow-engine/docs/runtime.md).
 */
export const WorkflowRuntimeEvents = {
  instanceStarted: eventContract('workflow.instance.started', instanceStarted),
  instanceCompleted: eventContract('workflow.instance.completed', instanceCompleted),
  taskCreated: eventContract('workflow.task.created', taskCreated),
  taskCompleted: eventContract('workflow.task.completed', taskCompleted),
  ccNotified: eventContract('workflow.cc.notified', ccNotified),
  instanceWithdrawn: eventContract('workflow.instance.withdrawn', instanceStateChanged),
  instanceTerminated: eventContract('workflow.instance.terminated', instanceStateChanged),
  instanceCancelled: eventContract('workflow.instance.cancelled', instanceStateChanged),
  instanceSuspended: eventContract('workflow.instance.suspended', instanceStateChanged),
  instanceResumed: eventContract('workflow.instance.resumed', instanceStateChanged),
  instanceReturned: eventContract('workflow.instance.returned', instanceStateChanged),
  instanceResubmitted: eventContract('workflow.instance.resubmitted', instanceStateChanged),
  priorityChanged: eventContract('workflow.instance.priority-changed', priorityChanged),
  taskTransferred: eventContract('workflow.task.transferred', taskHandedOver),
  taskReminded: eventContract('workflow.task.reminded', taskReminded),
  taskDelegated: eventContract('workflow.task.delegated', taskHandedOver),
  taskReturned: eventContract('workflow.task.returned', taskReturned),
  participantsAdded: eventContract('workflow.task.participants-added', participantsAdded),
  instanceStartedAtNode: eventContract('workflow.instance.started-at-node', startedAtNode),
  instanceReset: eventContract('workflow.instance.reset', instanceReset),
  applicantTransferred: eventContract('workflow.instance.applicant-transferred', applicantTransferred),
  taskProxyCompleted: eventContract('workflow.task.proxy-completed', taskProxyCompleted),
  taskTimedOut: eventContract('workflow.task.timed-out', taskTimedOut),
} as const;

/**
 * The instance events that name their definition and business key: a consumer that follows the
 * instances of one definition (policy-management for `permission-request`) subscribes to these.
 */
export const WorkflowInstanceEventFamily = eventFamily('workflow.instance.*', {
  instanceStarted: WorkflowRuntimeEvents.instanceStarted,
  instanceCompleted: WorkflowRuntimeEvents.instanceCompleted,
  instanceWithdrawn: WorkflowRuntimeEvents.instanceWithdrawn,
  instanceTerminated: WorkflowRuntimeEvents.instanceTerminated,
  instanceCancelled: WorkflowRuntimeEvents.instanceCancelled,
});
