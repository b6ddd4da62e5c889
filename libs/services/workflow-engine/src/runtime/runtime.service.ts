import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager } from 'typeorm';
import {
  AnyEventContract,
  AuthorizationDeniedError,
  DataScope,
  DomainError,
  EventPayloadOf,
  NotFoundError,
  Page,
  TrustedCaller,
  WorkflowRuntimeEvents,
} from '@lp/contracts';
import { pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { OutboxWriter } from '@lp/platform/messaging';
import { AssigneeDirectory, AssigneeSources, decideApproval, DefinitionGraph, definitionSchema, listNodes, START_KEY, VoteValue } from '../engine';
import { ASSIGNEE_DIRECTORY } from '../definitions/assignee-directory';
import type { InstanceStatus } from '../store';
import {
  DefinitionVersionDeletedError,
  InstanceVersionConflictError,
  InvalidStateError,
  NoActiveDefinitionError,
  ProxyWouldDecideError,
  TaskOperationNotAllowedError,
  TaskNotPendingError,
  VariablesTooLargeError,
} from './runtime-errors';

import { InstanceRow, RuntimeRepository, TaskListRow, TaskRow } from './runtime.repository';
import { emptyPosition, ParkedApproval, RuntimeWalk, WalkEffects, WalkPosition } from './runtime-walk';
import type {
  BatchCompleteResponse,
  BatchCompleteResult,
  InstanceResponse,
  ParticipantsAddedResponse,
  ProgressResponse,
  TaskDecisionResponse,
  TaskResponse,
} from './dto/runtime.responses';
import { AdminAuditTrail } from './admin-audit';
import { TaskTimers } from '../timeouts/task-timers';
import type { TimeoutPlan } from '../timeouts/timeout-plan';
import { InstanceEventLog } from '../history/instance-event-log';

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
export function actorOf(caller: TrustedCaller): string {
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
    ...('definition_key' in row
      ? {
          definitionKey: row.definition_key,
          businessKey: row.business_key,
          instanceStatus: row.instance_status,
          nodeName: row.node_name,
          definitionName: row.definition_name,
          definitionVersion: row.definition_version,
        }
      : {}),
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
  /** Writes through the manager of the change it audits, so it has no dependencies of its own. */
  private readonly audit = new AdminAuditTrail();
  /** Node timeouts' due times, armed in the transaction that opens each task (docs/timeouts.md). */
  private readonly timers = new TaskTimers();
  /** Likewise: the event log is written through the manager of each change. */
  private readonly eventLog = new InstanceEventLog();

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
    at?: { nodeKey: string; reason?: string },
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
      const effects = at === undefined ? await walk.start() : await walk.enterAt(at.nodeKey);
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.instanceStarted, {
        tenantId,
        instanceId: inserted.id,
        definitionKey: inserted.definition_key,
        definitionId: version.id,
        businessKey: inserted.business_key,
        initiator,
      });
      const saved = await this.apply(manager, { ...inserted, position }, effects, inserted.variables);
      if (at !== undefined) await this.startedAtNode(manager, caller, saved, at);
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
      return this.castVote(manager, actor, instance, task, graph, vote, variables);
    });
  }

  /**
   * The vote itself, once `decide` (the assignee) or `proxyComplete` (on the assignee's behalf) has
   * checked it, under the instance lock: the guarded close of the task, then the node's decision
   * over the votes of its visit and the walk's next step.
   */
  private async castVote(
    manager: EntityManager,
    actor: string,
    instance: InstanceRow,
    task: TaskRow,
    graph: DefinitionGraph,
    vote: { decision: VoteValue; comment?: string; target?: string },
    variables: Record<string, unknown>,
  ): Promise<TaskDecisionResponse> {
    const tenantId = instance.tenant_id;
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
    const votes = (await this.repository.votes(manager, instance.id, task.node_key, task.visit)).map(voteOf);
    const { decision } = decideApproval(parked.mode, parked.assignees.length, votes);
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
    await this.emitCreated(manager, instance, reopened);
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

  /** Transfer and delegation: the caller's checks, then `passSeat`. */
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
    const verb = how === 'Transferred' ? 'transferred' : 'delegated';
    if (input.to === actor) throw new TaskOperationNotAllowedError(`A task cannot be ${verb} to its own assignee.`);
    if (await this.hasSeat(manager, instance, task, input.to)) throw new TaskOperationNotAllowedError(`"${input.to}" has a seat at this approval already.`);
    const opened = await this.passSeat(manager, instance, task, parked, { to: input.to, by: actor, comment: input.comment ?? null }, how);
    await this.repository.saveInstance(manager, instance);
    return taskOf(opened);
  }

  /**
   * Closes a Pending task and opens one on its seat for `to`, with its events (the caller saves the
   * instance). A transfer gives the seat away (the parked assignee changes); a delegation keeps it
   * (the new task's `owner` is the task's assignee, to whom it returns).
   */
  private async passSeat(
    manager: EntityManager,
    instance: InstanceRow,
    task: TaskRow,
    parked: ParkedApproval,
    input: { to: string; by: string; comment: string | null },
    how: 'Transferred' | 'Delegated',
  ): Promise<TaskRow> {
    const tenantId = instance.tenant_id;
    const closed = await this.repository.closeTask(manager, tenantId, task.id, how, input.by, input.comment);
    if (!closed) throw new TaskNotPendingError(task.id, 'no longer Pending');
    const opened = await this.openOnSeat(manager, task, input.to, how === 'Delegated' ? task.assignee : null);
    if (how === 'Transferred') parked.assignees[task.seq] = input.to;
    const handedOver = { tenantId, taskId: task.id, newTaskId: opened.id, instanceId: instance.id, nodeKey: task.node_key, from: task.assignee, to: input.to };
    if (how === 'Transferred') await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskTransferred, handedOver, input.by);
    else await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskDelegated, handedOver, input.by);
    await this.emitCreated(manager, instance, opened);
    return opened;
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
        await this.emitCreated(manager, instance, row);
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

  /** Every task opens through here: its event, and its node timeout's due time (same transaction). */
  private async emitCreated(manager: EntityManager, instance: InstanceRow, task: TaskRow): Promise<void> {
    const graph = await this.graphOfVersion(manager, instance.definition_version_id);
    await this.timers.arm(manager, graph.node(task.node_key), task);
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
      for (const task of tasks) await this.remindOf(manager, task, actor);
      return { reminded: tasks.length };
    });
  }

  /** One `workflow.task.reminded` to the task's assignee: the initiator's remind, or a node timeout's. */
  private async remindOf(manager: EntityManager, task: TaskRow, by: string): Promise<void> {
    await this.emit(manager, task.tenant_id, WorkflowRuntimeEvents.taskReminded, {
      tenantId: task.tenant_id,
      taskId: task.id,
      instanceId: task.instance_id,
      nodeKey: task.node_key,
      assignee: task.assignee,
      by,
    });
  }

  /**
   * A node timeout fired on a Pending task of a Running instance (src/timeouts/, docs/timeouts.md), in
   * the caller's transaction, which holds the instance lock: the plan runs through the paths a
   * person's act takes (the vote of `decide`, the seat hand-over of `transfer`, the reminder of
   * `remind`), attributed to `by`; then `workflow.task.timed-out`. A hand-over goes to the first
   * candidate who is not the assignee and holds no seat at the node visit; with nobody, a reminder.
   */
  async onTimeout(
    manager: EntityManager,
    instance: InstanceRow,
    task: TaskRow,
    timeout: { action: EventPayloadOf<typeof WorkflowRuntimeEvents.taskTimedOut>['action']; dueAt: Date; plan: TimeoutPlan },
    by: string,
  ): Promise<EventPayloadOf<typeof WorkflowRuntimeEvents.taskTimedOut>> {
    const tenantId = instance.tenant_id;
    const { plan } = timeout;
    let outcome: EventPayloadOf<typeof WorkflowRuntimeEvents.taskTimedOut>['outcome'] = 'reminded';
    let handedTo: TaskRow | null = null;
    if (plan.kind === 'vote') {
      const graph = await this.graphOfVersion(manager, instance.definition_version_id);
      const cast = await this.castVote(manager, by, instance, task, graph, { decision: plan.decision, comment: plan.comment }, instance.variables);
      outcome = cast.returnedTask ? 'returned' : plan.decision === 'approve' ? 'approved' : 'rejected';
    } else if (plan.kind === 'hand-over') {
      const parked = instance.position.parked[task.node_key];
      if (!parked || parked.visit !== task.visit) throw new Error(`task ${task.id}: node ${task.node_key} visit ${task.visit} is not waiting`);
      for (const to of plan.candidates) {
        if (to === task.assignee || (await this.hasSeat(manager, instance, task, to))) continue;
        handedTo = await this.passSeat(manager, instance, task, parked, { to, by, comment: plan.comment }, 'Transferred');
        await this.repository.saveInstance(manager, instance);
        outcome = 'transferred';
        break;
      }
    }
    if (outcome === 'reminded') await this.remindOf(manager, task, by);
    const timedOut = {
      tenantId,
      taskId: task.id,
      instanceId: instance.id,
      nodeKey: task.node_key,
      visit: task.visit,
      assignee: task.assignee,
      action: timeout.action,
      outcome,
      dueAt: timeout.dueAt.toISOString(),
      to: handedTo?.assignee ?? null,
      newTaskId: handedTo?.id ?? null,
      by,
    };
    await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskTimedOut, timedOut);
    this.logger.log(`audit: task ${task.id} of instance ${instance.id} timed out (${timeout.action}) in tenant ${tenantId}: ${outcome}`);
    return timedOut;
  }

  // ---- administrative operations (`workflow.instance.manage`, audited: docs/runtime.md) ---------

  /** `start` placed at an approval node of the active version: same business-key idempotency, the caller is the initiator. */
  startAtNode(
    caller: TrustedCaller,
    input: { definitionKey: string; businessKey: string; nodeKey: string; variables: Record<string, unknown>; priority: number; reason?: string },
  ): Promise<{ instance: InstanceResponse; created: boolean }> {
    const { nodeKey, reason, ...start } = input;
    return this.start(caller, start, { nodeKey, ...(reason !== undefined ? { reason } : {}) });
  }

  /** The event and the audit row of a start at a node, in the start's transaction. */
  private async startedAtNode(manager: EntityManager, caller: TrustedCaller, saved: InstanceRow, at: { nodeKey: string; reason?: string }): Promise<void> {
    await this.emit(manager, saved.tenant_id, WorkflowRuntimeEvents.instanceStartedAtNode, {
      tenantId: saved.tenant_id,
      instanceId: saved.id,
      definitionKey: saved.definition_key,
      businessKey: saved.business_key,
      nodeKey: at.nodeKey,
      by: actorOf(caller),
    });
    await this.audit.record(manager, caller, {
      operation: 'start-at-node',
      instanceId: saved.id,
      before: null,
      after: { ...stateOf(saved), nodeKey: at.nodeKey },
      reason: at.reason ?? null,
    });
  }

  /**
   * Moves a Running instance to an approval node of its version, back or forward: every open task is
   * cancelled and the node opens anew (visit + 1), as `enterAt` places it; the walk goes on from
   * there (an `auto-pass` node may carry it further, even to its end).
   */
  async reset(caller: TrustedCaller, instanceId: string, input: { nodeKey: string; reason?: string; version?: number }): Promise<InstanceResponse> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    return this.dataSource.transaction(async (manager) => {
      const instance = await this.lockAtVersion(manager, tenantId, instanceId, input.version);
      if (instance.status !== 'Running') throw new InvalidStateError(`The instance is ${instance.status}: only a Running instance can be reset.`);
      const graph = await this.graphOfVersion(manager, instance.definition_version_id);
      const before = stateOf(instance);
      // Every open task goes, whichever node holds it; the walk's `cancelled` names the parked nodes only.
      await this.repository.cancelPending(manager, instance.id);
      const position = instance.position;
      const effects = await new RuntimeWalk(graph, position, this.sources(tenantId, instance.initiator, instance.variables)).enterAt(input.nodeKey);
      const saved = await this.apply(manager, { ...instance, position }, effects, instance.variables);
      const reason = input.reason ?? null;
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.instanceReset, {
        tenantId,
        instanceId: instance.id,
        definitionKey: instance.definition_key,
        businessKey: instance.business_key,
        from: before.open,
        to: input.nodeKey,
        by: actor,
        reason,
      });
      await this.audit.record(manager, caller, { operation: 'reset', instanceId: instance.id, before, after: stateOf(saved), reason });
      return instanceOf(saved);
    });
  }

  /**
   * The instance's initiator (applicant) becomes `to`, while it is Running or Suspended. The seats the
   * old applicant holds at waiting approvals whose assignees include `initiator` pass to `to`: an
   * open task of theirs is transferred, a delegate's task returns to `to`, a seat not open yet
   * (sequential) opens for `to`. Approvals reached later resolve `initiator` to `to` anyway.
   */
  async transferApplicant(caller: TrustedCaller, instanceId: string, input: { to: string; reason?: string; version?: number }): Promise<InstanceResponse> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    return this.dataSource.transaction(async (manager) => {
      const instance = await this.lockAtVersion(manager, tenantId, instanceId, input.version);
      if (instance.status !== 'Running' && instance.status !== 'Suspended') {
        throw new InvalidStateError(`The instance is ${instance.status}: its applicant can change only while it is Running or Suspended.`);
      }
      const from = instance.initiator;
      if (input.to === from) throw new TaskOperationNotAllowedError(`"${from}" is the instance’s applicant already.`);
      const before = stateOf(instance);
      const reason = input.reason ?? null;
      const graph = await this.graphOfVersion(manager, instance.definition_version_id);
      const open = await this.repository.pendingTasks(manager, instance.id);
      const reassigned: TaskRow[] = [];
      for (const [nodeKey, parked] of Object.entries(instance.position.parked)) {
        const node = graph.node(nodeKey);
        if (node.kind !== 'approval' || !node.assignees.some((a) => a.kind === 'initiator')) continue;
        const seats = parked.assignees.flatMap((subject, seq) => (subject === from ? [seq] : []));
        if (seats.length === 0) continue;
        const atVisit = open.filter((t) => t.node_key === nodeKey && t.visit === parked.visit);
        // Two seats of one person would count their vote twice.
        if (parked.assignees.includes(input.to) || atVisit.some((t) => t.assignee === input.to)) {
          throw new TaskOperationNotAllowedError(`"${input.to}" has a seat at approval "${nodeKey}" already, where the applicant’s seat would pass to them.`);
        }
        for (const seq of seats) {
          parked.assignees[seq] = input.to;
          const task = atVisit.find((t) => t.seq === seq);
          if (task?.owner === from) await this.repository.setOwner(manager, tenantId, task.id, input.to);
          else if (task?.assignee === from)
            reassigned.push(await this.passSeat(manager, instance, task, parked, { to: input.to, by: actor, comment: reason }, 'Transferred'));
        }
      }
      await this.repository.setInitiator(manager, tenantId, instance.id, input.to);
      const saved = await this.repository.saveInstance(manager, instance);
      const reassignedTasks = reassigned.map((t) => t.id);
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.applicantTransferred, {
        tenantId,
        instanceId: instance.id,
        definitionKey: instance.definition_key,
        businessKey: instance.business_key,
        from,
        to: input.to,
        by: actor,
        reason,
        reassignedTasks,
      });
      await this.audit.record(manager, caller, {
        operation: 'transfer-applicant',
        instanceId: instance.id,
        before,
        after: { ...stateOf(saved), reassignedTasks },
        reason,
      });
      return instanceOf(saved);
    });
  }

  /**
   * Proxy completion (docs/runtime.md, Batch completion): each task is approved on behalf of its
   * assignee, in its own transaction under its instance's lock, so one task's refusal writes nothing
   * of it and leaves the others alone. The answer lists each task's result in the request's order.
   * An outage (a 5xx) ends the batch with that error; the tasks before it stay completed.
   */
  async batchComplete(caller: TrustedCaller, input: { taskIds: string[]; comment?: string }): Promise<BatchCompleteResponse> {
    actorOf(caller);
    const results: BatchCompleteResult[] = [];
    for (const taskId of input.taskIds) {
      try {
        results.push({ taskId, outcome: 'completed', task: await this.proxyComplete(caller, taskId, input.comment) });
      } catch (error) {
        if (!(error instanceof DomainError) || error.status >= 500) throw error;
        results.push({ taskId, outcome: 'failed', status: error.status, code: error.code, detail: error.message });
      }
    }
    const completed = results.filter((r) => r.outcome === 'completed').length;
    return { results, completed, failed: results.length - completed };
  }

  /**
   * One proxy completion: an approval vote on the seat, cast by the caller for the assignee, that
   * never decides the node (that vote is left to an assignee: 422 `Workflow.Runtime.ProxyWouldDecide`),
   * so the process never moves past a node and the node always keeps an open task. A delegate's
   * task is refused (its owner decides). The vote counts once: the task is closed by the same guarded
   * update as any vote, so its assignee's own vote afterwards is 409 `Workflow.Task.NotPending`.
   */
  private async proxyComplete(caller: TrustedCaller, taskId: string, comment: string | undefined): Promise<TaskResponse> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    return this.dataSource.transaction(async (manager) => {
      const { instance, task } = await this.lockTask(manager, tenantId, taskId);
      if (task.status !== 'Pending') throw new TaskNotPendingError(task.id, task.status);
      if (instance.status !== 'Running') throw new InvalidStateError(`The instance is ${instance.status}: its tasks cannot be decided.`);
      if (task.owner !== null)
        throw new TaskOperationNotAllowedError(`Task ${task.id} is a delegate’s: its owner "${task.owner}" decides, no one votes on their behalf.`);
      const parked = instance.position.parked[task.node_key];
      if (!parked || parked.visit !== task.visit) throw new Error(`task ${task.id}: node ${task.node_key} visit ${task.visit} is not waiting`);
      const cast = (await this.repository.votes(manager, instance.id, task.node_key, task.visit)).map(voteOf);
      if (decideApproval(parked.mode, parked.assignees.length, [...cast, 'approve']).decision !== 'pending')
        throw new ProxyWouldDecideError(task.id, task.node_key);
      const graph = await this.graphOfVersion(manager, instance.definition_version_id);
      const vote = { decision: 'approve' as const, ...(comment !== undefined ? { comment } : {}) };
      const { task: decided } = await this.castVote(manager, actor, instance, task, graph, vote, instance.variables);
      await this.emit(manager, tenantId, WorkflowRuntimeEvents.taskProxyCompleted, {
        tenantId,
        taskId: task.id,
        instanceId: instance.id,
        nodeKey: task.node_key,
        onBehalfOf: task.assignee,
        by: actor,
      });
      await this.audit.record(manager, caller, {
        operation: 'batch-complete',
        instanceId: instance.id,
        taskId: task.id,
        onBehalfOf: task.assignee,
        before: { status: task.status, assignee: task.assignee, nodeKey: task.node_key, visit: task.visit },
        after: { status: decided.status, decidedBy: decided.decidedBy },
        reason: comment ?? null,
      });
      return decided;
    });
  }

  /** The instance under its lock, refused with 409 `Workflow.ConcurrencyConflict` when the client read another version. */
  private async lockAtVersion(manager: EntityManager, tenantId: string, instanceId: string, version?: number): Promise<InstanceRow> {
    const instance = await this.repository.lockInstance(manager, tenantId, instanceId);
    if (!instance) throw new NotFoundError('Instance');
    if (version !== undefined && version !== instance.version) throw new InstanceVersionConflictError(instance.id, version, instance.version);
    return instance;
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

  async todo(caller: TrustedCaller, scope: DataScope, page: PageQuery): Promise<Page<TaskResponse>> {
    const [rows, total] = await this.repository.todoPage(scope, actorOf(caller), pageWindow(page));
    return pageOf(rows.map(taskOf), total, page);
  }

  async todoCount(caller: TrustedCaller, scope: DataScope): Promise<{ count: number }> {
    return { count: await this.repository.todoCount(scope, actorOf(caller)) };
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
      await this.emitCreated(manager, instance, await this.repository.insertTask(manager, { tenantId, instanceId, ...open }));
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

  /**
   * Every runtime event goes out through here: its outbox row and its row of the instance's event log
   * (docs/history.md), both in the change's transaction. `actor` is for the one event whose payload
   * does not name who acted (a hand-over made by someone other than the assignee).
   */
  private async emit<C extends AnyEventContract>(
    manager: EntityManager,
    tenantId: string,
    contract: C,
    payload: EventPayloadOf<C>,
    actor?: string,
  ): Promise<void> {
    const envelope = await this.outbox.addEvent(manager, contract, payload, tenantId);
    await this.eventLog.append(manager, envelope, actor);
  }

  /**
   * The graph of a published version. Versions are immutable, so a graph is read and parsed once per
   * process and kept (bounded): every vote walks its instance's version, and re-reading and
   * re-parsing the JSON cost more than the vote's own writes. Public for the node timeouts, which
   * read a fired timer's node from it.
   */
  async graphOfVersion(manager: EntityManager, versionId: string): Promise<DefinitionGraph> {
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
    // Only a terminal instance outlives its version (a management deletion refuses otherwise, and a forced one terminates the rest).
    if (!row) throw new DefinitionVersionDeletedError(versionId);
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

/** A decided task as the vote `decideApproval` counts. */
function voteOf(task: TaskRow): VoteValue {
  return task.status === 'Approved' ? 'approve' : 'reject';
}

/** The nodes holding open work (`start` while returned to the initiator). */
function openNodes(position: WalkPosition): string[] {
  return position.returned ? [START_KEY] : Object.keys(position.parked);
}

/** What the audit keeps of an instance before and after an administrative operation. */
function stateOf(row: InstanceRow): { status: InstanceStatus; open: string[]; initiator: string; version: number } {
  return { status: row.status, open: openNodes(row.position), initiator: row.initiator, version: row.version };
}

function checkVariables(variables: Record<string, unknown>): void {
  if (Buffer.byteLength(JSON.stringify(variables), 'utf8') > MAX_VARIABLES_BYTES) throw new VariablesTooLargeError(MAX_VARIABLES_BYTES);
}
