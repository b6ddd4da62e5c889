import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { FeatureGate } from '@lp/authz-guard';
import { DomainError, FleetService, TrustedCaller } from '@lp/contracts';
import { JobHandler, JobOutcome, JobRunContext } from '@lp/platform/jobs';
import { ASSIGNEE_DIRECTORY } from '../definitions/assignee-directory';
import { AssigneeDirectory, resolveAssignees } from '../engine';
import { InstanceRow, RuntimeRepository, TaskRow } from '../runtime/runtime.repository';
import { RuntimeService } from '../runtime/runtime.service';
import { WORKFLOW_RUNTIME_FEATURE } from '../runtime-feature/workflow-runtime.guard';
import { nodeTimeoutsJob } from './node-timeouts.jobs';
import { TaskTimers } from './task-timers';
import { NodeTimeout, planOf, TIMEOUT_ACTOR } from './timeout-plan';

/** Timers read per batch: each then runs in a transaction of its own, so one transaction stays short whatever the backlog. */
export const NODE_TIMEOUT_BATCH = 100;
/** Batches per run: a larger backlog is finished by the next runs, well within the job's timeout. */
export const NODE_TIMEOUT_MAX_BATCHES = 20;

/** The engine acting on a tenant's timers: the caller its `workflow.runtime` check is made as. */
export function nodeTimeoutCaller(tenantId: string): TrustedCaller {
  return { kind: 'application', subject: TIMEOUT_ACTOR, clientId: FleetService.workflowEngine, tenantId, scopes: [], claimsDigest: TIMEOUT_ACTOR };
}

/** What one run did, for the execution audit's detail and for tests. */
export interface NodeTimeoutReport {
  fired: number;
  dropped: number;
  /** Refused for good (a 4xx domain error, e.g. the vote's walk reached an approval with nobody): settled `failed`. */
  failed: number;
  /** Thrown by an outage (5xx, database): rolled back, still due, tried again by the next run. */
  retried: number;
  /** Tenants whose `workflow.runtime` is off (or could not be read): their timers stay due. */
  skippedTenants: string[];
}

type FireResult = 'fired' | 'dropped' | 'taken' | 'deferred';

/**
 * Runs due node timeouts (docs/timeouts.md). Each timer is claimed in its own transaction
 * (`FOR UPDATE SKIP LOCKED`, then the instance lock, the runtime's one lock order after it), its
 * action runs there through the runtime's vote / hand-over / reminder paths, and the timer is
 * settled in that same transaction: a crash anywhere before the commit leaves the timer due and the
 * task untouched, and a committed action can never fire again. Several runs at once (replicas, a
 * manual run beside a scheduled one) split the timers between them.
 */
@Injectable()
export class NodeTimeoutRunner {
  private readonly logger = new Logger(NodeTimeoutRunner.name);
  private readonly timers = new TaskTimers();

  constructor(
    private readonly dataSource: DataSource,
    private readonly runtime: RuntimeService,
    private readonly repository: RuntimeRepository,
    private readonly features: FeatureGate,
    @Inject(ASSIGNEE_DIRECTORY) private readonly directory: AssigneeDirectory,
  ) {}

  @JobHandler(nodeTimeoutsJob.jobName)
  async run({ now }: JobRunContext): Promise<JobOutcome> {
    const report = await this.fireDue(now);
    const detail = `fired ${report.fired}, dropped ${report.dropped}, failed ${report.failed}, retried ${report.retried}; skipped tenants: ${report.skippedTenants.join(', ') || 'none'}`;
    // Something to retry is an outage to look at; the timers themselves are safe (still due).
    return report.retried > 0 ? { status: 'failed', errorCode: 'Workflow.Timeout.Retry', detail } : detail;
  }

  /** Fires every timer due at `now` (bounded: see `NODE_TIMEOUT_MAX_BATCHES`). */
  async fireDue(now: Date): Promise<NodeTimeoutReport> {
    const report: NodeTimeoutReport = { fired: 0, dropped: 0, failed: 0, retried: 0, skippedTenants: [] };
    const enabled = new Map<string, boolean>();
    const tried: string[] = [];
    for (let batch = 0; batch < NODE_TIMEOUT_MAX_BATCHES; batch++) {
      const due = await this.timers.due(this.dataSource.manager, now, NODE_TIMEOUT_BATCH, report.skippedTenants, tried);
      for (const { taskId, tenantId } of due) {
        if (!enabled.has(tenantId)) {
          enabled.set(tenantId, await this.runtimeEnabled(tenantId));
          if (!enabled.get(tenantId)) report.skippedTenants.push(tenantId);
        }
        if (!enabled.get(tenantId)) continue;
        tried.push(taskId);
        const result = await this.fire(taskId, now);
        if (result === 'fired' || result === 'dropped' || result === 'failed' || result === 'retried') report[result] += 1;
      }
      if (due.length < NODE_TIMEOUT_BATCH) break;
    }
    return report;
  }

  /** Spec §1 rule 4: `workflow.runtime` before every background job's work, per tenant. Unreadable counts as off for this run. */
  private async runtimeEnabled(tenantId: string): Promise<boolean> {
    try {
      const on = await this.features.isEnabled(nodeTimeoutCaller(tenantId), WORKFLOW_RUNTIME_FEATURE);
      if (!on) this.logger.log(`${WORKFLOW_RUNTIME_FEATURE} is off in tenant ${tenantId}: its node timeouts stay due`);
      return on;
    } catch (error) {
      this.logger.warn(`${WORKFLOW_RUNTIME_FEATURE} of tenant ${tenantId} unreadable (${errorText(error)}): its node timeouts wait for the next run`);
      return false;
    }
  }

  private async fire(taskId: string, now: Date): Promise<FireResult | 'failed' | 'retried'> {
    try {
      return await this.dataSource.transaction((manager) => this.fireIn(manager, taskId, now));
    } catch (error) {
      if (error instanceof DomainError && error.status < 500) {
        // Refused as a person's act would be (422 AssigneeEmpty on the next node, ...): retrying cannot help; the task stays open for its assignee.
        await this.timers.settle(this.dataSource.manager, taskId, 'failed', error.code);
        this.logger.warn(`node timeout of task ${taskId} refused: ${error.code}: ${error.message}`);
        return 'failed';
      }
      this.logger.error(`node timeout of task ${taskId} failed, rolled back and left due: ${errorText(error)}`);
      return 'retried';
    }
  }

  private async fireIn(manager: EntityManager, taskId: string, now: Date): Promise<FireResult> {
    const timer = await this.timers.claim(manager, taskId, now);
    if (!timer) return 'taken';
    const instance = await this.repository.lockInstanceOfTask(manager, timer.tenant_id, taskId);
    const task = instance ? await this.repository.task(timer.tenant_id, taskId, manager, true) : undefined;
    if (!instance || !task || task.status !== 'Pending') {
      await this.timers.settle(manager, taskId, 'dropped');
      return 'dropped';
    }
    // Suspended after the due list was read: its timer waits for the resume, untouched.
    if (instance.status !== 'Running') return 'deferred';
    const timeout = await this.timeoutOf(manager, instance, task);
    if (!timeout) {
      await this.timers.settle(manager, taskId, 'dropped');
      return 'dropped';
    }
    // Settled before the action so that a task the action opens on this seat sees the hand-over (TaskTimers.arm); one transaction either way.
    await this.timers.fired(manager, taskId, now);
    const escalation = timeout.action === 'escalate' && timeout.escalateTo ? await this.escalation(instance, timeout) : [];
    await this.runtime.onTimeout(manager, instance, task, { action: timeout.action, dueAt: timer.due_at, plan: planOf(timeout, escalation) }, TIMEOUT_ACTOR);
    return 'fired';
  }

  /** The node's timeout as the instance's version defines it (versions are immutable, so it is the one the timer was armed from). */
  private async timeoutOf(manager: EntityManager, instance: InstanceRow, task: TaskRow): Promise<NodeTimeout | undefined> {
    const graph = await this.runtime.graphOfVersion(manager, instance.definition_version_id);
    if (!graph.has(task.node_key)) return undefined;
    const node = graph.node(task.node_key);
    return node.kind === 'approval' ? node.timeout : undefined;
  }

  /** Who an escalation may go to, resolved now against the instance (its initiator, its variables, the role's members today). */
  private escalation(instance: InstanceRow, timeout: NodeTimeout): Promise<string[]> {
    const spec = timeout.escalateTo;
    if (!spec) return Promise.resolve([]);
    return resolveAssignees([spec], {
      initiator: instance.initiator,
      variables: instance.variables,
      membersOfRole: (role) => this.directory.membersOfRole(instance.tenant_id, role),
    });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
