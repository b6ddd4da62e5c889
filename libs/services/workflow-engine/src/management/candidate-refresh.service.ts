import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DomainError, NotFoundError, TrustedCaller, WorkflowManagementEvents, WorkflowRuntimeEvents } from '@lp/contracts';
import { OutboxWriter } from '@lp/platform/messaging';
import { ApprovalNode, AssigneeDirectory, decideApproval, DefinitionGraph, definitionSchema, listNodes, resolveAssignees } from '../engine';
import { ASSIGNEE_DIRECTORY } from '../definitions/assignee-directory';
import { DefinitionsRepository } from '../definitions/definitions.repository';
import { AdminAuditTrail } from '../runtime/admin-audit';
import { InvalidStateError, TaskNotPendingError } from '../runtime/runtime-errors';
import { InstanceRow, RuntimeRepository, TaskRow } from '../runtime/runtime.repository';
import { actorOf } from '../runtime/runtime.service';
import { NoRoleAssigneeError, RefreshWouldDecideError } from './management-errors';
import { ManagementRepository } from './management.repository';
import { planSeatRefresh, SeatRefresh } from './seat-refresh';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What one node visit's refresh did. */
export interface VisitRefresh {
  instanceId: string;
  nodeKey: string;
  visit: number;
  added: string[];
  removed: string[];
  openedTasks: string[];
  cancelledTasks: string[];
  seats: string[];
}

export type RoleRefreshResult =
  | (VisitRefresh & { outcome: 'refreshed' | 'unchanged' })
  | { instanceId: string; nodeKey: string; outcome: 'failed'; status: number; code: string; detail: string };

/** Role members memoized for one request: every node visit of a refresh sees one answer per role. */
type Members = (roleName: string) => Promise<string[]>;

/**
 * Re-resolves the assignees of waiting approvals whose node assigns a role, through
 * policy-management (`authz.role.members`, as the walk does), and applies the difference to the node
 * visit's seats under the instance lock (docs/management.md, Candidate refresh).
 */
@Injectable()
export class CandidateRefreshService {
  private readonly audit = new AdminAuditTrail();

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: ManagementRepository,
    private readonly runtime: RuntimeRepository,
    private readonly definitions: DefinitionsRepository,
    private readonly outbox: OutboxWriter,
    @Inject(ASSIGNEE_DIRECTORY) private readonly directory: AssigneeDirectory,
  ) {}

  /** The task's node visit: its Pending task names it. */
  async byTask(caller: TrustedCaller, taskId: string): Promise<VisitRefresh> {
    actorOf(caller);
    const { tenantId } = caller;
    if (!UUID.test(taskId)) throw new NotFoundError('Task');
    const members = this.memberLookup(tenantId);
    return this.dataSource.transaction(async (manager) => {
      const instance = await this.runtime.lockInstanceOfTask(manager, tenantId, taskId);
      const task = instance ? await this.runtime.task(tenantId, taskId, manager, true) : undefined;
      if (!instance || !task) throw new NotFoundError('Task');
      if (task.status !== 'Pending') throw new TaskNotPendingError(task.id, task.status);
      if (instance.status !== 'Running' && instance.status !== 'Suspended')
        throw new InvalidStateError(`The instance is ${instance.status}: its candidates are not refreshed.`);
      const graph = await this.graphOf(manager, tenantId, instance.definition_version_id);
      const node = graph.node(task.node_key) as ApprovalNode;
      if (!node.assignees.some((a) => a.kind === 'role')) throw new NoRoleAssigneeError(task.node_key);
      const refreshed = await this.refreshVisit(manager, caller, instance, node, members, task.id);
      if (refreshed.changed) await this.runtime.saveInstance(manager, instance);
      return refreshed.result;
    });
  }

  /**
   * Every waiting approval of the tenant whose node assigns the role, one instance per transaction
   * (as batch completion runs one task per transaction): a refused visit writes nothing of itself and
   * leaves the others alone. An outage (a 5xx) ends the request with that error.
   */
  async byRole(caller: TrustedCaller, roleName: string): Promise<{ role: string; results: RoleRefreshResult[]; refreshed: number; failed: number }> {
    actorOf(caller);
    const { tenantId } = caller;
    const members = this.memberLookup(tenantId);
    const results: RoleRefreshResult[] = [];
    for (const version of await this.repository.versionsInUse(tenantId)) {
      const graph = DefinitionGraph.of(definitionSchema.parse(version.definition));
      const nodes = approvalsAssigning(graph, roleName);
      if (nodes.length === 0) continue;
      for (const instanceId of await this.repository.instancesWaitingAt(tenantId, version.id, nodes)) {
        results.push(...(await this.refreshInstance(caller, instanceId, graph, nodes, members)));
      }
    }
    const refreshed = results.filter((r) => r.outcome === 'refreshed').length;
    return { role: roleName, results, refreshed, failed: results.filter((r) => r.outcome === 'failed').length };
  }

  private async refreshInstance(
    caller: TrustedCaller,
    instanceId: string,
    graph: DefinitionGraph,
    nodeKeys: string[],
    members: Members,
  ): Promise<RoleRefreshResult[]> {
    return this.dataSource.transaction(async (manager) => {
      const instance = await this.runtime.lockInstance(manager, caller.tenantId, instanceId);
      // Ended meanwhile: nothing waits any more.
      if (!instance || (instance.status !== 'Running' && instance.status !== 'Suspended')) return [];
      const results: RoleRefreshResult[] = [];
      let changed = false;
      for (const nodeKey of nodeKeys.filter((k) => instance.position.parked[k] !== undefined)) {
        try {
          const refreshed = await this.refreshVisit(manager, caller, instance, graph.node(nodeKey) as ApprovalNode, members);
          changed ||= refreshed.changed;
          results.push({ ...refreshed.result, outcome: refreshed.changed ? 'refreshed' : 'unchanged' });
        } catch (error) {
          // A refused visit has written nothing (the refusal comes before its writes); an outage ends the request.
          if (!(error instanceof DomainError) || error.status >= 500) throw error;
          results.push({ instanceId, nodeKey, outcome: 'failed', status: error.status, code: error.code, detail: error.message });
        }
      }
      if (changed) await this.runtime.saveInstance(manager, instance);
      return results;
    });
  }

  /**
   * One node visit, under its instance's lock: re-resolve, plan the seats, refuse a plan that would
   * decide the node, then cancel, move and open tasks, and write the event and the audit row. The
   * caller saves the instance (its `position` is changed in place) once per instance.
   */
  private async refreshVisit(
    manager: EntityManager,
    caller: TrustedCaller,
    instance: InstanceRow,
    node: ApprovalNode,
    members: Members,
    taskId?: string,
  ): Promise<{ changed: boolean; result: VisitRefresh }> {
    const actor = actorOf(caller);
    const tenantId = instance.tenant_id;
    const parked = instance.position.parked[node.key];
    if (!parked) throw new InvalidStateError(`Approval "${node.key}" is not waiting.`);
    const resolved = await resolveAssignees(node.assignees, { initiator: instance.initiator, variables: instance.variables, membersOfRole: members });
    const tasks = await this.repository.tasksOfVisit(manager, tenantId, instance.id, node.key, parked.visit);
    const plan: SeatRefresh = planSeatRefresh(parked, tasks, resolved);
    const base = { instanceId: instance.id, nodeKey: node.key, visit: parked.visit, added: plan.added, removed: plan.removed };
    if (plan.added.length === 0 && plan.removed.length === 0)
      return { changed: false, result: { ...base, openedTasks: [], cancelledTasks: [], seats: parked.assignees } };
    if (decideApproval(parked.mode, plan.seats.length, plan.votes).decision !== 'pending')
      throw new RefreshWouldDecideError(node.key, parked.visit, `would decide it (${parked.mode.mode}: the remaining seats have voted)`);
    if (plan.openSeats.length === 0) throw new RefreshWouldDecideError(node.key, parked.visit, 'would leave nobody to decide it');

    const cancelled: string[] = [];
    for (const task of plan.cancel) if (await this.repository.cancelTask(manager, tenantId, task.id)) cancelled.push(task.id);
    for (const move of plan.moves) await this.repository.moveSeat(manager, tenantId, move.taskId, move.seq);
    const opened: TaskRow[] = [];
    for (const seq of plan.open) {
      const assignee = plan.seats[seq];
      if (assignee === undefined) throw new Error(`refresh of ${node.key}: seat ${seq} is outside the seat list`);
      const row = await this.runtime.insertTask(manager, { tenantId, instanceId: instance.id, nodeKey: node.key, visit: parked.visit, seq, assignee });
      await this.outbox.addEvent(
        manager,
        WorkflowRuntimeEvents.taskCreated,
        { tenantId, taskId: row.id, instanceId: instance.id, nodeKey: node.key, visit: row.visit, assignee: row.assignee },
        tenantId,
      );
      opened.push(row);
    }
    const before = [...parked.assignees];
    parked.assignees = plan.seats;
    const result: VisitRefresh = { ...base, openedTasks: opened.map((t) => t.id), cancelledTasks: cancelled, seats: plan.seats };
    await this.outbox.addEvent(
      manager,
      WorkflowManagementEvents.candidatesRefreshed,
      {
        tenantId,
        instanceId: instance.id,
        nodeKey: node.key,
        visit: parked.visit,
        added: plan.added,
        removed: plan.removed,
        openedTasks: result.openedTasks,
        cancelledTasks: cancelled,
        by: actor,
      },
      tenantId,
    );
    await this.audit.record(manager, caller, {
      operation: 'refresh-candidates',
      instanceId: instance.id,
      ...(taskId !== undefined ? { taskId } : {}),
      before: { nodeKey: node.key, visit: parked.visit, seats: before, version: instance.version },
      after: { seats: plan.seats, added: plan.added, removed: plan.removed, openedTasks: result.openedTasks, cancelledTasks: cancelled },
    });
    return { changed: true, result };
  }

  private async graphOf(manager: EntityManager, tenantId: string, versionId: string): Promise<DefinitionGraph> {
    const version = await this.definitions.versionById(tenantId, versionId, manager);
    if (!version?.definition) throw new InvalidStateError(`The instance's definition version ${versionId} was deleted.`);
    return DefinitionGraph.of(definitionSchema.parse(version.definition));
  }

  private memberLookup(tenantId: string): Members {
    const asked = new Map<string, Promise<string[]>>();
    return (roleName) => {
      let answer = asked.get(roleName);
      if (!answer) {
        answer = this.directory.membersOfRole(tenantId, roleName);
        asked.set(roleName, answer);
      }
      return answer;
    };
  }
}

/** The approval nodes of a version that assign the role (`{ kind: 'role', role }`, the role's name as policy-management knows it). */
function approvalsAssigning(graph: DefinitionGraph, roleName: string): string[] {
  return listNodes(graph.definition)
    .map((e) => e.node)
    .filter((n): n is ApprovalNode => n.kind === 'approval' && n.assignees.some((a) => a.kind === 'role' && a.role === roleName))
    .map((n) => n.key);
}
