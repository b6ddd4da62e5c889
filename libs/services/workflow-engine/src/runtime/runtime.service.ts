import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager } from 'typeorm';
import { AnyEventContract, AuthorizationDeniedError, event, EventPayloadOf, NotFoundError, Page, TrustedCaller, WorkflowRuntimeEvents } from '@lp/contracts';
import { pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { createEventEnvelope, OutboxWriter } from '@lp/platform/messaging';
import { AssigneeDirectory, AssigneeSources, decideApproval, DefinitionGraph, definitionSchema, listNodes, START_KEY, VoteValue } from '../engine';
import { ASSIGNEE_DIRECTORY } from '../definitions/assignee-directory';
import type { InstanceStatus } from '../store';
import {
  InstanceVersionConflictError,
  InvalidStateError,
  NoActiveDefinitionError,
  TaskOperationNotAllowedError,
  TaskNotPendingError,
  VariablesTooLargeError,
} from './runtime-errors';

import { InstanceRow, RuntimeRepository, TaskListRow, TaskRow } from './runtime.repository';
import { emptyPosition, ParkedApproval, RuntimeWalk, WalkEffects } from './runtime-walk';
import type { InstanceResponse, ParticipantsAddedResponse, ProgressResponse, TaskDecisionResponse, TaskResponse } from './dto/runtime.responses';

/** The instance operations besides voting: the states each applies to, the state it leads to, its event. */
export const INSTANCE_OPERATIONS = {
  withdraw: { from: ['Running'], to: 'Withdrawn', event: WorkflowRuntimeEvents.instanceWithdrawn },
  terminate: { from: ['Running', 'Suspended'], to: 'Terminated', event: WorkflowRuntimeEvents.instanceTerminated },
  cancel: { from: ['Running', 'Suspended'], to: 'Cancelled', event: WorkflowRuntimeEvents.instanceCancelled },
  suspend: { from: ['Running'], to: 'Suspended', event: WorkflowRuntimeEvents.instanceSuspended },
  resume: { from: ['Suspended'], to: 'Running', event: WorkflowRuntimeEvents.instanceResumed },
} as const satisfies Record<string, { from: readonly InstanceStatus[]; to: InstanceStatus; event: unknown }>;
export type InstanceOperationName = keyof typeof INSTANCE_OPERATIONS;

/** Largest variables object (compact JSON, UTF-8) a start or a complete may leave on the instance. */
export const MAX_VARIABLES_BYTES = 65_536;

/** The subject a runtime write is made by: the acting subject of a delegated caller. */
function actorOf(caller: TrustedCaller): string {
  const actor = caller.actor ?? caller.subject;
  if (!actor) throw new AuthorizationDeniedError('Workflow operations need a user subject.');
  return actor;
}

export function instanceOf(row: InstanceRow): InstanceResponse {
  return {
    id: row.id,
    definitionKey: row.definition_key,
    definitionId: row.definition_version_id,
    businessKey: row.business_key,
    initiator: row.initiator,
    status: row.status,
    variables: row.variables,
    priority: row.priority,
    version: row.version,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    endedAt: row.ended_at?.toISOString() ?? null,
  };
}

export function taskOf(row: TaskRow | TaskListRow): TaskResponse {
  return {
    id: row.id,
    instanceId: row.instance_id,
    nodeKey: row.node_key,
    visit: row.visit,
    assignee: row.assignee,
    owner: row.owner,
    status: row.status,
    comment: row.comment,
    readAt: row.read_at?.toISOString() ?? null,
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
    createdAt: row.created_at.toISOString(),
    ...('definition_key' in row ? { definitionKey: row.definition_key, businessKey: row.business_key, instanceStatus: row.instance_status } : {}),
  };
}

/**
 * Instances and tasks (docs/runtime.md). Every write runs in one transaction that first locks the
 * instance row, so the votes of one node are counted one at a time and a node closes exactly once;
 * the walk's tasks, the instance row and the events are written in that same transaction.
 */
@Injectable()
export class RuntimeService {
  private readonly logger = new Logger(RuntimeService.name);
  /** Parsed graphs of published versions, by version id (immutable, so never stale). */
  private readonly graphs = new LRUCache<string, DefinitionGraph>({ max: 500 });

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: RuntimeRepository,
    private readonly outbox: OutboxWriter,
    @Inject(ASSIGNEE_DIRECTORY) private readonly directory: AssigneeDirectory,
  ) {}

  /** Starts an instance on the key's active version; the same business key answers the existing instance (`created: false`). */
  async start(
    caller: TrustedCaller,
    input: { definitionKey: string; businessKey: string; variables: Record<string, unknown>; priority: number },
  ): Promise<{ instance: InstanceResponse; created: boolean }> {
    const initiator = actorOf(caller);
    const { tenantId } = caller;
    checkVariables(input.variables);
    const existing = await this.repository.instanceByBusinessKey(tenantId, input.definitionKey, input.businessKey);
    if (existing) return { instance: instanceOf(existing), created: false };
    return this.dataSource.transaction(async (manager) => {
      const active: Array<{ id: string; definition: Record<string, unknown> }> = await manager.query(
        `SELECT v."id", v."definition" FROM "workflow"."definition_binding" b JOIN "workflow"."definition_version" v ON v."id" = b."active_version_id"
          WHERE b."tenant_id" = $1 AND b."key" = $2`,
        [tenantId, input.definitionKey],
      );
      const version = active[0];
      if (!version) throw new NoActiveDefinitionError(input.definitionKey);
      const inserted = await this.repository.insertInstance(manager, { tenantId, versionId: version.id, initiator, ...input });
      if (!inserted) {
        const raced = await this.repository.instanceByBusinessKey(tenantId, input.definitionKey, input.businessKey, manager);
        if (!raced) throw new Error('instance vanished after a business-key conflict');
        return { instance: instanceOf(raced), created: false };
      }
      const graph = graphOf(version.definition);
      const position = emptyPosition();
      const walk = new RuntimeWalk(graph, position, this.sources(tenantId, inserted.initiator, inserted.variables));
      const effects = await walk.start();
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.instanceStarted, {
        tenantId,
        instanceId: inserted.id,
        definitionKey: inserted.definition_key,
        definitionId: version.id,
        businessKey: inserted.business_key,
        initiator,
      });
      const saved = await this.apply(manager, { ...inserted, position }, effects, inserted.variables);
      this.logger.log(`instance ${saved.id} (${saved.definition_key}/${saved.business_key}) started by ${initiator} in tenant ${tenantId}: ${saved.status}`);
      return { instance: instanceOf(saved), created: true };
    });
  }

  /** Approves (or rejects) one task; when the vote decides its node, the walk moves on. */
  async decide(
    caller: TrustedCaller,
    taskId: string,
    vote: { decision: VoteValue; comment?: string; variables?: Record<string, unknown>; target?: string },
  ): Promise<TaskDecisionResponse> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    return this.dataSource.transaction(async (manager) => {
      const { instance, task } = await this.lockTask(manager, tenantId, taskId);
      if (task.assignee !== actor) throw new AuthorizationDeniedError('Only the task’s assignee may complete or reject it.');
      // The task's own state first: the loser of a race on an `any` node learns that its task was closed.
      if (task.status !== 'Pending') throw new TaskNotPendingError(task.id, task.status);
      if (instance.status !== 'Running') throw new InvalidStateError(`The instance is ${instance.status}: its tasks cannot be decided.`);
      const graph = await this.graphOfVersion(manager, instance.definition_version_id);
      if (vote.target !== undefined) RuntimeWalk.checkRejectTarget(graph, task.node_key, vote.target);
      const variables = { ...instance.variables, ...(vote.variables ?? {}) };
      checkVariables(variables);

      if (task.owner !== null && vote.target !== undefined) {
        throw new TaskOperationNotAllowedError(`A delegate's rejection goes back to "${task.owner}", who decides: it takes no target.`);
      }
      const status = vote.decision === 'approve' ? 'Approved' : 'Rejected';
      const decided = await this.repository.closeTask(manager, tenantId, task.id, status, actor, vote.comment ?? null);
      if (!decided) throw new TaskNotPendingError(task.id, 'no longer Pending');
      if (decided.owner !== null) return this.returnToOwner(manager, instance, decided, status, variables);
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskCompleted, {
        tenantId,
        taskId: task.id,
        instanceId: instance.id,
        nodeKey: task.node_key,
        decision: status,
        decidedBy: actor,
      });

      const position = instance.position;
      const parked = position.parked[task.node_key];
      if (!parked || parked.visit !== task.visit) throw new Error(`task ${task.id}: node ${task.node_key} visit ${task.visit} is not waiting`);
      const votes = (await this.repository.votes(manager, instance.id, task.node_key, task.visit)).map((t) => (t.status === 'Approved' ? 'approve' : 'reject'));
      const { decision } = decideApproval(parked.mode, parked.assignees.length, votes as VoteValue[]);
      const walk = new RuntimeWalk(graph, position, this.sources(tenantId, instance.initiator, variables));
      let effects: WalkEffects;
      let nodeClosed = false;
      if (decision === 'pending') {
        effects = { opened: [], cancelled: [], notifications: [], outcome: 'running' };
        const next = parked.assignees[votes.length];
        if (parked.mode.mode === 'sequential' && next !== undefined) {
          effects.opened.push({ nodeKey: task.node_key, visit: task.visit, seq: votes.length, assignee: next });
        }
      } else {
        nodeClosed = true;
        await this.repository.cancelPending(manager, instance.id, [task.node_key]);
        effects = decision === 'approved' ? await walk.approved(task.node_key) : await walk.rejected(task.node_key, vote.target);
      }
      const saved = await this.apply(manager, { ...instance, position }, effects, variables, actor);
      if (position.returned) {
        await this.emit(manager, tenantId, WorkflowRuntimeEvents.instanceReturned, {
          tenantId,
          instanceId: instance.id,
          definitionKey: instance.definition_key,
          businessKey: instance.business_key,
          from: task.node_key,
          to: START_KEY,
          by: actor,
          reason: vote.comment ?? null,
        });
      }
      return { task: taskOf(decided), nodeClosed, instance: instanceOf(saved) };
    });
  }

  /**
   * The assignee hands the task to another user when the node allows it (`operations.transfer`): the
   * task ends Transferred and a new Pending task on the same seat opens for `to`. Under the instance
   * lock, like a vote, so a transfer and a vote on one node never both count.
   */
  async transfer(caller: TrustedCaller, taskId: string, input: { to: string; comment?: string }): Promise<TaskResponse> {
    return this.onOwnTask(caller, taskId, 'transfer', (manager, instance, task, parked) =>
      this.handOver(manager, caller, instance, task, parked, input, 'Transferred'),
    );
  }

  /**
   * A delegate acted (docs/runtime.md, Delegation): their decision is advice, not a vote; the seat's
   * task opens again, Pending for its owner, who decides. Under the lock taken by `decide`.
   */
  private async returnToOwner(
    manager: EntityManager,
    instance: InstanceRow,
    decided: TaskRow,
    status: 'Approved' | 'Rejected',
    variables: Record<string, unknown>,
  ): Promise<TaskDecisionResponse> {
    const tenantId = instance.tenant_id;
    const owner = decided.owner as string;
    const reopened = await this.openOnSeat(manager, decided, owner, null);
    const saved = await this.repository.saveInstance(manager, { ...instance, variables });
    await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskReturned, {
      tenantId,
      taskId: decided.id,
      newTaskId: reopened.id,
      instanceId: instance.id,
      nodeKey: decided.node_key,
      from: decided.assignee,
      to: owner,
      decision: status,
    });
    await this.emitCreated(manager, reopened);
    return { task: taskOf(decided), nodeClosed: false, instance: instanceOf(saved), returnedTask: taskOf(reopened) };
  }

  /**
   * The assignee lets another user act for them where the node allows it (`operations.delegate`): the
   * task ends Delegated and a Pending task on the same seat opens for `to` with `owner` = the
   * assignee. When the delegate completes or rejects, the seat comes back to the owner (Pending).
   */
  async delegate(caller: TrustedCaller, taskId: string, input: { to: string; comment?: string }): Promise<TaskResponse> {
    return this.onOwnTask(caller, taskId, 'delegate', (manager, instance, task, parked) =>
      this.handOver(manager, caller, instance, task, parked, input, 'Delegated'),
    );
  }

  /**
   * Transfer and delegation close the caller's task and open one on the same seat for `to`. A
   * transfer gives the seat away (the parked assignee changes); a delegation keeps it (the new task's
   * `owner` is the caller, to whom it returns).
   */
  private async handOver(
    manager: EntityManager,
    caller: TrustedCaller,
    instance: InstanceRow,
    task: TaskRow,
    parked: ParkedApproval,
    input: { to: string; comment?: string },
    how: 'Transferred' | 'Delegated',
  ): Promise<TaskResponse> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    const verb = how === 'Transferred' ? 'transferred' : 'delegated';
    if (input.to === actor) throw new TaskOperationNotAllowedError(`A task cannot be ${verb} to its own assignee.`);
    if (await this.hasSeat(manager, instance, task, input.to)) throw new TaskOperationNotAllowedError(`"${input.to}" has a seat at this approval already.`);
    const closed = await this.repository.closeTask(manager, tenantId, task.id, how, actor, input.comment ?? null);
    if (!closed) throw new TaskNotPendingError(task.id, 'no longer Pending');
    const opened = await this.openOnSeat(manager, task, input.to, how === 'Delegated' ? actor : null);
    if (how === 'Transferred') parked.assignees[task.seq] = input.to;
    await this.repository.saveInstance(manager, instance);
    const handedOver = { tenantId, taskId: task.id, newTaskId: opened.id, instanceId: instance.id, nodeKey: task.node_key, from: actor, to: input.to };
    if (how === 'Transferred') await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskTransferred, handedOver);
    else await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskDelegated, handedOver);
    await this.emitCreated(manager, opened);
    return taskOf(opened);
  }

  /**
   * Adds signers where the node allows it (`operations.addSigner`; docs/runtime.md, Adding signers).
   * `parallel` (all / any / ratio nodes): new seats, Pending now, counted by the node's mode.
   * `before` (sequential): the new seats go in front of the caller's; the caller's task ends
   * Delegated and their seat opens again once the new signers approved. `after` (sequential): the
   * caller's task is approved (a vote) and the new seats follow it before the node can close.
   */
  async addParticipant(
    caller: TrustedCaller,
    taskId: string,
    input: { subjects: string[]; position: 'before' | 'after' | 'parallel'; comment?: string },
  ): Promise<ParticipantsAddedResponse> {
    const actor = actorOf(caller);
    return this.onOwnTask(caller, taskId, 'addSigner', async (manager, instance, task, parked) => {
      const { tenantId } = caller;
      const sequential = parked.mode.mode === 'sequential';
      if (input.position === 'parallel' && sequential) {
        throw new TaskOperationNotAllowedError(`Approval "${task.node_key}" is sequential: add signers before or after, not in parallel.`);
      }
      if (input.position !== 'parallel' && !sequential) {
        throw new TaskOperationNotAllowedError(`Approval "${task.node_key}" is not sequential: its signers can only be added in parallel.`);
      }
      for (const subject of input.subjects) {
        if (subject === actor) throw new TaskOperationNotAllowedError('The assignee cannot add themselves.');
        if (await this.hasSeat(manager, instance, task, subject)) throw new TaskOperationNotAllowedError(`"${subject}" has a seat at this approval already.`);
      }
      const comment = input.comment ?? null;
      let own: TaskRow | undefined;
      const openSeats: number[] = [];
      if (input.position === 'parallel') {
        const first = parked.assignees.length;
        parked.assignees.push(...input.subjects);
        input.subjects.forEach((_, i) => openSeats.push(first + i));
        own = task;
      } else if (input.position === 'before') {
        own = await this.repository.closeTask(manager, tenantId, task.id, 'Delegated', actor, comment);
        parked.assignees.splice(task.seq, 0, ...input.subjects);
        openSeats.push(task.seq);
      } else {
        own = await this.repository.closeTask(manager, tenantId, task.id, 'Approved', actor, comment);
        parked.assignees.splice(task.seq + 1, 0, ...input.subjects);
        openSeats.push(task.seq + 1);
      }
      if (!own) throw new TaskNotPendingError(task.id, 'no longer Pending');
      if (input.position === 'after') {
        await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskCompleted, {
          tenantId,
          taskId: task.id,
          instanceId: instance.id,
          nodeKey: task.node_key,
          decision: 'Approved',
          decidedBy: actor,
        });
      }
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.participantsAdded, {
        tenantId,
        taskId: task.id,
        instanceId: instance.id,
        nodeKey: task.node_key,
        position: input.position,
        subjects: input.subjects,
        by: actor,
      });
      const opened: TaskRow[] = [];
      for (const seq of openSeats) {
        const row = await this.repository.insertTask(manager, {
          tenantId,
          instanceId: instance.id,
          nodeKey: task.node_key,
          visit: task.visit,
          seq,
          assignee: parked.assignees[seq] as string,
        });
        await this.emitCreated(manager, row);
        opened.push(row);
      }
      const saved = await this.repository.saveInstance(manager, instance);
      return { task: taskOf(own), opened: opened.map(taskOf), instance: instanceOf(saved) };
    });
  }

  /**
   * Transfer, delegate and add-participant: under the instance lock (like a vote, so a hand-over and a
   * vote on one node never both count), the caller's own Pending, undelegated task
   * of a Running instance at a node whose `operations` allow the operation.
   */
  private async onOwnTask<T>(
    caller: TrustedCaller,
    taskId: string,
    operation: 'transfer' | 'delegate' | 'addSigner',
    run: (manager: EntityManager, instance: InstanceRow, task: TaskRow, parked: ParkedApproval) => Promise<T>,
  ): Promise<T> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    return this.dataSource.transaction(async (manager) => {
      const { instance, task } = await this.lockTask(manager, tenantId, taskId);
      if (task.assignee !== actor) throw new AuthorizationDeniedError(`Only the task’s assignee may ${OPERATION_WORDS[operation].may}.`);
      if (task.status !== 'Pending') throw new TaskNotPendingError(task.id, task.status);
      if (instance.status !== 'Running') throw new InvalidStateError(`The instance is ${instance.status}: its tasks cannot change hands.`);
      const node = (await this.graphOfVersion(manager, instance.definition_version_id)).node(task.node_key);
      if (node.kind !== 'approval' || node.operations?.[operation] !== true)
        throw new TaskOperationNotAllowedError(`Approval "${task.node_key}" does not allow ${OPERATION_WORDS[operation].noun}.`);
      if (task.owner !== null) throw new TaskOperationNotAllowedError(`This task was delegated by "${task.owner}": only they may hand it on.`);
      const parked = instance.position.parked[task.node_key];
      if (!parked || parked.visit !== task.visit) throw new Error(`task ${task.id}: node ${task.node_key} visit ${task.visit} is not waiting`);
      return run(manager, instance, task, parked);
    });
  }

  /** The task and its instance under the instance's lock (instance first, then the task: one lock order for every writer). */
  private async lockTask(manager: EntityManager, tenantId: string, taskId: string): Promise<{ instance: InstanceRow; task: TaskRow }> {
    const instance = await this.repository.lockInstanceOfTask(manager, tenantId, taskId);
    const task = instance ? await this.repository.task(tenantId, taskId, manager, true) : undefined;
    if (!instance || !task) throw new NotFoundError('Task');
    return { instance, task };
  }

  /** Whether `subject` holds a seat of the task's node visit, or has an open task there (a delegate). */
  private async hasSeat(manager: EntityManager, instance: InstanceRow, task: TaskRow, subject: string): Promise<boolean> {
    if (instance.position.parked[task.node_key]?.assignees.includes(subject)) return true;
    const open = await this.repository.pendingTasks(manager, instance.id);
    return open.some((t) => t.node_key === task.node_key && t.visit === task.visit && t.assignee === subject);
  }

  /** A new Pending task on the seat `task` held (same node visit and place in its assignee list). */
  private openOnSeat(manager: EntityManager, task: TaskRow, assignee: string, owner: string | null): Promise<TaskRow> {
    return this.repository.insertTask(manager, {
      tenantId: task.tenant_id,
      instanceId: task.instance_id,
      nodeKey: task.node_key,
      visit: task.visit,
      seq: task.seq,
      assignee,
      owner,
    });
  }

  private async emitCreated(manager: EntityManager, task: TaskRow): Promise<void> {
    await this.emit(manager, task.tenant_id, WorkflowRuntimeEvents.taskCreated, {
      tenantId: task.tenant_id,
      taskId: task.id,
      instanceId: task.instance_id,
      nodeKey: task.node_key,
      visit: task.visit,
      assignee: task.assignee,
    });
  }

  /**
   * Withdraw (the initiator only), terminate, cancel, suspend, resume: under the instance's lock, the
   * state rule (409 `Workflow.InvalidState`), the optional version check (409
   * `Workflow.ConcurrencyConflict`); an ending operation cancels the open tasks. Audited: a log line
   * and the operation's event, in the transaction.
   */
  async operate(
    caller: TrustedCaller,
    instanceId: string,
    operation: InstanceOperationName,
    input: { reason?: string; version?: number },
  ): Promise<InstanceResponse> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    const rule = INSTANCE_OPERATIONS[operation];
    return this.dataSource.transaction(async (manager) => {
      const instance = await this.repository.lockInstance(manager, tenantId, instanceId);
      if (!instance) throw new NotFoundError('Instance');
      if (operation === 'withdraw' && instance.initiator !== actor) throw new AuthorizationDeniedError('Only the instance’s initiator may withdraw it.');
      if (input.version !== undefined && input.version !== instance.version)
        throw new InstanceVersionConflictError(instance.id, input.version, instance.version);
      if (!(rule.from as readonly InstanceStatus[]).includes(instance.status)) {
        throw new InvalidStateError(`The instance is ${instance.status}: ${operation} applies only to ${rule.from.join(' or ')} instances.`);
      }
      if (rule.to !== 'Running' && rule.to !== 'Suspended') await this.repository.cancelPending(manager, instance.id);
      const saved = await this.repository.saveInstance(manager, { ...instance, status: rule.to });
      await this.emit(manager, tenantId, rule.event, {
        tenantId,
        instanceId: instance.id,
        definitionKey: instance.definition_key,
        businessKey: instance.business_key,
        from: instance.status,
        to: rule.to,
        by: actor,
        reason: input.reason ?? null,
      });
      this.logger.log(
        `audit: instance ${instance.id} ${operation} by ${actor} in tenant ${tenantId}: ${instance.status} -> ${rule.to}${input.reason ? ` (${input.reason})` : ''}`,
      );
      return instanceOf(saved);
    });
  }

  /** The initiator resubmits an instance a rejection returned to them: the flow starts again from the first node (visits go on counting). */
  async resubmit(caller: TrustedCaller, instanceId: string, input: { variables?: Record<string, unknown>; version?: number }): Promise<InstanceResponse> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    return this.dataSource.transaction(async (manager) => {
      const instance = await this.lockForInitiator(manager, tenantId, instanceId, actor, 'resubmit', input.version);
      if (instance.status !== 'Running' || !instance.position.returned) {
        throw new InvalidStateError(
          `The instance is ${instance.status}${instance.status === 'Running' ? ' and waiting for its approvers' : ''}: only an instance returned to its initiator can be resubmitted.`,
        );
      }
      const variables = { ...instance.variables, ...(input.variables ?? {}) };
      checkVariables(variables);
      const position = instance.position;
      const graph = await this.graphOfVersion(manager, instance.definition_version_id);
      const effects = await new RuntimeWalk(graph, position, this.sources(tenantId, instance.initiator, variables)).resubmit();
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.instanceResubmitted, {
        tenantId,
        instanceId: instance.id,
        definitionKey: instance.definition_key,
        businessKey: instance.business_key,
        from: START_KEY,
        to: firstKey(graph),
        by: actor,
        reason: null,
      });
      return instanceOf(await this.apply(manager, { ...instance, position }, effects, variables));
    });
  }

  /** The initiator changes the priority of a Running or Suspended instance. */
  async changePriority(caller: TrustedCaller, instanceId: string, input: { priority: number; version?: number }): Promise<InstanceResponse> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    return this.dataSource.transaction(async (manager) => {
      const instance = await this.lockForInitiator(manager, tenantId, instanceId, actor, 'change the priority of', input.version);
      if (instance.status !== 'Running' && instance.status !== 'Suspended') {
        throw new InvalidStateError(`The instance is ${instance.status}: its priority can change only while it is Running or Suspended.`);
      }
      const saved = await this.repository.setPriority(manager, tenantId, instance.id, input.priority);
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.priorityChanged, {
        tenantId,
        instanceId,
        from: instance.priority,
        to: input.priority,
        by: actor,
      });
      return instanceOf(saved);
    });
  }

  /** The initiator reminds the assignees of a Running instance's open tasks: one `workflow.task.reminded` per task. */
  async remind(caller: TrustedCaller, instanceId: string): Promise<{ reminded: number }> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    return this.dataSource.transaction(async (manager) => {
      const instance = await this.lockForInitiator(manager, tenantId, instanceId, actor, 'remind the assignees of');
      if (instance.status !== 'Running') throw new InvalidStateError(`The instance is ${instance.status}: reminders are sent only while it is Running.`);
      const tasks = await this.repository.pendingTasks(manager, instance.id);
      for (const task of tasks) {
        await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskReminded, {
          tenantId,
          taskId: task.id,
          instanceId,
          nodeKey: task.node_key,
          assignee: task.assignee,
          by: actor,
        });
      }
      return { reminded: tasks.length };
    });
  }

  private async lockForInitiator(
    manager: EntityManager,
    tenantId: string,
    instanceId: string,
    actor: string,
    what: string,
    version?: number,
  ): Promise<InstanceRow> {
    const instance = await this.repository.lockInstance(manager, tenantId, instanceId);
    if (!instance) throw new NotFoundError('Instance');
    if (instance.initiator !== actor) throw new AuthorizationDeniedError(`Only the instance’s initiator may ${what} it.`);
    if (version !== undefined && version !== instance.version) throw new InstanceVersionConflictError(instance.id, version, instance.version);
    return instance;
  }

  async todo(caller: TrustedCaller, page: PageQuery): Promise<Page<TaskResponse>> {
    const [rows, total] = await this.repository.todoPage(caller.tenantId, actorOf(caller), pageWindow(page));
    return pageOf(rows.map(taskOf), total, page);
  }

  async todoCount(caller: TrustedCaller): Promise<{ count: number }> {
    return { count: await this.repository.todoCount(caller.tenantId, actorOf(caller)) };
  }

  async done(caller: TrustedCaller, page: PageQuery): Promise<Page<TaskResponse>> {
    const [rows, total] = await this.repository.donePage(caller.tenantId, actorOf(caller), pageWindow(page));
    return pageOf(rows.map(taskOf), total, page);
  }

  /** A task: its assignee, whoever decided it, and the instance's initiator may read it. */
  async task(caller: TrustedCaller, taskId: string): Promise<TaskResponse> {
    const actor = actorOf(caller);
    const row = await this.repository.taskWithInstance(caller.tenantId, taskId);
    if (!row) throw new NotFoundError('Task');
    if (![row.assignee, row.owner, row.decided_by, row.initiator].includes(actor))
      throw new AuthorizationDeniedError('Only the task’s assignee or the instance’s initiator may read it.');
    return taskOf(row);
  }

  async markRead(caller: TrustedCaller, taskId: string): Promise<TaskResponse> {
    const actor = actorOf(caller);
    const row = await this.repository.task(caller.tenantId, taskId);
    if (!row) throw new NotFoundError('Task');
    if (row.assignee !== actor) throw new AuthorizationDeniedError('Only the task’s assignee may mark it read.');
    await this.repository.markRead(caller.tenantId, taskId);
    return this.task(caller, taskId);
  }

  /** Every node of the instance's version with its state (not-reached, passed, waiting) and its tasks. */
  async progress(caller: TrustedCaller, instanceId: string): Promise<ProgressResponse> {
    const instance = await this.repository.instance(caller.tenantId, instanceId);
    if (!instance) throw new NotFoundError('Instance');
    const definition = (await this.graphOfVersion(this.dataSource.manager, instance.definition_version_id)).definition;
    const tasks = await this.repository.tasksOfInstance(caller.tenantId, instanceId);
    const reached = new Set(instance.position.path ?? []);
    const nodes = listNodes(definition).map(({ node }) => ({
      key: node.key,
      kind: node.kind,
      name: node.name ?? null,
      state: instance.position.parked?.[node.key] ? ('waiting' as const) : reached.has(node.key) ? ('passed' as const) : ('not-reached' as const),
      tasks: tasks.filter((t) => t.node_key === node.key).map(taskOf),
    }));
    return { instance: instanceOf(instance), returnedToInitiator: instance.position.returned === true, nodes };
  }

  // ---- the walk's effects ------------------------------------------------------------------

  /**
   * Cancels, opens (only the tasks of nodes still waiting at that visit), notifies and saves the
   * instance. `decidedBy` is the voter whose vote this walk follows: an instance it ends names them
   * (a permission request's grant is made by its approver).
   */
  private async apply(
    manager: EntityManager,
    instance: InstanceRow,
    effects: WalkEffects,
    variables: Record<string, unknown>,
    decidedBy: string | null = null,
  ): Promise<InstanceRow> {
    const { tenant_id: tenantId, id: instanceId, position } = instance;
    if (effects.outcome !== 'running') await this.repository.cancelPending(manager, instanceId);
    else if (effects.cancelled.length > 0) await this.repository.cancelPending(manager, instanceId, effects.cancelled);
    for (const open of effects.opened) {
      if (position.parked[open.nodeKey]?.visit !== open.visit) continue;
      await this.emitCreated(manager, await this.repository.insertTask(manager, { tenantId, instanceId, ...open }));
    }
    for (const n of effects.notifications) {
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.ccNotified, { tenantId, instanceId, nodeKey: n.nodeKey, recipients: n.recipients });
    }
    const status: InstanceStatus = effects.outcome === 'approved' ? 'Approved' : effects.outcome === 'rejected' ? 'Rejected' : instance.status;
    const saved = await this.repository.saveInstance(manager, { ...instance, status, variables, position });
    if (status === 'Approved' || status === 'Rejected') {
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.instanceCompleted, {
        tenantId,
        instanceId,
        definitionKey: saved.definition_key,
        businessKey: saved.business_key,
        status,
        decidedBy,
      });
    }
    return saved;
  }

  private async emit<C extends AnyEventContract>(manager: EntityManager, tenantId: string, contract: C, payload: EventPayloadOf<C>): Promise<void> {
    const { type, payload: body } = event(contract, payload);
    await this.outbox.add(manager, createEventEnvelope(type, body, { tenantId }));
  }

  /**
   * The graph of a published version. Versions are immutable, so a graph is read and parsed once per
   * process and kept (bounded): every vote walks its instance's version, and re-reading and
   * re-parsing the JSON cost more than the vote's own writes.
   */
  private async graphOfVersion(manager: EntityManager, versionId: string): Promise<DefinitionGraph> {
    const cached = this.graphs.get(versionId);
    if (cached) return cached;
    const graph = graphOf(await this.versionDefinition(manager, versionId));
    this.graphs.set(versionId, graph);
    return graph;
  }

  private async versionDefinition(manager: EntityManager, versionId: string): Promise<Record<string, unknown>> {
    const rows: Array<{ definition: Record<string, unknown> }> = await manager.query(
      `SELECT "definition" FROM "workflow"."definition_version" WHERE "id" = $1`,
      [versionId],
    );
    const row = rows[0];
    if (!row) throw new Error(`definition version ${versionId} is missing`);
    return row.definition;
  }

  private sources(tenantId: string, initiator: string, variables: Record<string, unknown>): AssigneeSources {
    return { initiator, variables, membersOfRole: (role) => this.directory.membersOfRole(tenantId, role) };
  }
}

/** How the refusals of `onOwnTask` name each operation. */
const OPERATION_WORDS = {
  transfer: { may: 'transfer it', noun: 'transfer' },
  delegate: { may: 'delegate it', noun: 'delegation' },
  addSigner: { may: 'add signers', noun: 'adding signers' },
} as const;

/** A stored version is compiled already; parsing again only restores the typed shape (and refuses a damaged row loudly). */
function graphOf(definition: Record<string, unknown>): DefinitionGraph {
  return DefinitionGraph.of(definitionSchema.parse(definition));
}

/** The key of the node a (re)start goes to first. */
function firstKey(graph: DefinitionGraph): string {
  const first = graph.first();
  return first.kind === 'node' ? first.key : 'complete';
}

function checkVariables(variables: Record<string, unknown>): void {
  if (Buffer.byteLength(JSON.stringify(variables), 'utf8') > MAX_VARIABLES_BYTES) throw new VariablesTooLargeError(MAX_VARIABLES_BYTES);
}
