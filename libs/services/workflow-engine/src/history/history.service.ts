import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotFoundError, Page, TrustedCaller, ValidationError } from '@lp/contracts';
import { InjectConfig } from '@lp/platform/config';
import { pageOf, PageQuery, pageWindow } from '@lp/platform/http';
import { DefinitionGraph, definitionSchema, START_KEY } from '../engine';
import { TASK_STATUSES } from '../store';
import { AdminAuditTrail } from '../runtime/admin-audit';
import { InvalidStateError } from '../runtime/runtime-errors';
import type { WalkPosition } from '../runtime/runtime-walk';
import { actorOf, instanceOf } from '../runtime/runtime.service';
import { WorkflowEngineConfig, workflowEngineConfig } from '../workflow-engine.config';
import type { SetRetention } from './dto/history.dto';
import type {
  BusinessKeyStatusResponse,
  HistorySummaryResponse,
  InstanceEventResponse,
  RetentionResponse,
  TaskCountsResponse,
  TrailEntryResponse,
} from './dto/history.responses';
import { HistoryRepository, InstanceEventRow, TERMINAL_STATUSES } from './history.repository';
import { ApprovalRule, nodeDecisions } from './node-decisions';

/** The human actions the activity trail shows; the engine's own steps (tasks opening, cc notices, ends, returns) are timeline only. */
export const TRAIL_EVENT_TYPES = [
  'workflow.instance.started',
  'workflow.instance.started-at-node',
  'workflow.task.completed',
  'workflow.task.transferred',
  'workflow.task.delegated',
  'workflow.task.returned',
  'workflow.task.participants-added',
  'workflow.task.proxy-completed',
  'workflow.task.reminded',
  'workflow.instance.withdrawn',
  'workflow.instance.resubmitted',
  'workflow.instance.terminated',
  'workflow.instance.cancelled',
  'workflow.instance.suspended',
  'workflow.instance.resumed',
  'workflow.instance.priority-changed',
  'workflow.instance.reset',
  'workflow.instance.applicant-transferred',
] as const;

/** Longest business key (as the runtime accepts it at start): a longer one is not a business key at all. */
const MAX_BUSINESS_KEY_LENGTH = 200;

function eventOf(row: InstanceEventRow): InstanceEventResponse {
  return {
    instanceId: row.instance_id,
    definitionKey: row.definition_key,
    seq: row.seq,
    eventId: row.event_id,
    type: row.event_type,
    occurredAt: row.occurred_at.toISOString(),
    actor: row.actor,
    taskId: row.task_id,
    nodeKey: row.node_key,
    comment: row.comment,
    payload: row.payload,
  };
}

/** `workflow.task.completed` reads as its decision; every other event as the last part of its type. */
function actionOf(row: InstanceEventRow): string {
  if (row.event_type === 'workflow.task.completed') return row.payload['decision'] === 'Rejected' ? 'rejected' : 'approved';
  return row.event_type.slice(row.event_type.lastIndexOf('.') + 1);
}

/**
 * Instance history (docs/history.md): projections of the event log and the instance's rows, hot or
 * archived, always within the caller's tenant; the archive; the tenant's retention setting.
 */
@Injectable()
export class HistoryService {
  private readonly logger = new Logger(HistoryService.name);
  /** Writes through the archive's transaction manager (it has no dependencies of its own). */
  private readonly audit = new AdminAuditTrail();

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: HistoryRepository,
    @InjectConfig(workflowEngineConfig) private readonly config: WorkflowEngineConfig,
  ) {}

  async timeline(caller: TrustedCaller, instanceId: string, page: PageQuery): Promise<Page<InstanceEventResponse>> {
    const [rows, total] = await this.repository.events(caller.tenantId, instanceId, pageWindow(page));
    return pageOf(rows.map(eventOf), total, page);
  }

  async trail(caller: TrustedCaller, instanceId: string, page: PageQuery): Promise<Page<TrailEntryResponse>> {
    const [rows, total] = await this.repository.events(caller.tenantId, instanceId, pageWindow(page), TRAIL_EVENT_TYPES);
    const items = rows.map((row) => ({
      seq: row.seq,
      action: actionOf(row),
      type: row.event_type,
      actor: row.actor,
      occurredAt: row.occurred_at.toISOString(),
      comment: row.comment,
      taskId: row.task_id,
      nodeKey: row.node_key,
      details: row.payload,
    }));
    return pageOf(items, total, page);
  }

  async summary(caller: TrustedCaller, instanceId: string): Promise<HistorySummaryResponse> {
    const { tenantId } = caller;
    const instance = await this.repository.instance(tenantId, instanceId);
    if (!instance) throw new NotFoundError('Instance');
    const tasks = await this.repository.tasks(tenantId, instanceId);
    const [, events] = await this.repository.events(tenantId, instanceId, { skip: 0, take: 0 });
    const graph = await this.graphOf(instance.definition_version_id);
    const position = instance.position as Partial<WalkPosition>;
    const ended = instance.ended_at !== null;
    const counts = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Omit<TaskCountsResponse, 'total'>;
    for (const task of tasks) counts[task.status]++;
    const ruleOf = (nodeKey: string): ApprovalRule | undefined => {
      const node = graph?.has(nodeKey) ? graph.node(nodeKey) : undefined;
      return node?.kind === 'approval' ? node : undefined;
    };
    return {
      instance: instanceOf(instance),
      archived: instance.archived_at !== null,
      archivedAt: instance.archived_at?.toISOString() ?? null,
      archivedBy: instance.archived_by,
      startedAt: instance.created_at.toISOString(),
      endedAt: instance.ended_at?.toISOString() ?? null,
      durationMs: instance.ended_at ? instance.ended_at.getTime() - instance.created_at.getTime() : null,
      tasks: { total: tasks.length, ...counts },
      currentNodes: ended ? [] : position.returned ? [START_KEY] : Object.keys(position.parked ?? {}),
      events,
      nodes: nodeDecisions(tasks, ruleOf, ended ? {} : (position.parked ?? {})),
    };
  }

  /**
   * Moves a terminal instance, its tasks and its events into the archive tables in one transaction,
   * under the instance's row lock (so no runtime write interleaves), audited in `workflow.admin_audit`.
   * Idempotent: an archived instance answers as it is. Running or Suspended → 409 `Workflow.InvalidState`.
   */
  async archive(caller: TrustedCaller, instanceId: string): Promise<HistorySummaryResponse> {
    const actor = actorOf(caller);
    const { tenantId } = caller;
    await this.dataSource.transaction(async (manager) => {
      const hot = await this.repository.lockHot(manager, tenantId, instanceId);
      // Not hot: archived already (the summary below answers it) or not there at all (its 404).
      if (!hot) return;
      if (!TERMINAL_STATUSES.includes(hot.status)) {
        throw new InvalidStateError(`The instance is ${hot.status}: only an ended instance (${TERMINAL_STATUSES.join(', ')}) can be archived.`);
      }
      await this.repository.moveToArchive(manager, tenantId, instanceId, actor);
      await this.audit.record(manager, caller, {
        operation: 'archive',
        instanceId,
        before: { status: hot.status, version: hot.version, archived: false },
        after: { status: hot.status, version: hot.version, archived: true },
      });
    });
    return this.summary(caller, instanceId);
  }

  /** The events of every instance of the business key in the caller's tenant, newest first; 404 when it has none there. */
  async businessTimeline(caller: TrustedCaller, businessKey: string, page: PageQuery): Promise<Page<InstanceEventResponse>> {
    const aggregate = await this.repository.businessKey(caller.tenantId, checkBusinessKey(businessKey));
    if (!aggregate) throw new NotFoundError('Business key');
    const [rows, total] = await this.repository.businessEvents(caller.tenantId, businessKey, pageWindow(page));
    return pageOf(rows.map(eventOf), total, page);
  }

  async businessStatus(caller: TrustedCaller, businessKey: string): Promise<BusinessKeyStatusResponse> {
    const aggregate = await this.repository.businessKey(caller.tenantId, checkBusinessKey(businessKey));
    if (!aggregate) throw new NotFoundError('Business key');
    const byStatus = Object.fromEntries(aggregate.byStatus.map((s) => [s.status, s.n]));
    return {
      businessKey,
      status: aggregate.latest.status,
      latest: instanceOf(aggregate.latest),
      instances: aggregate.byStatus.reduce((sum, s) => sum + s.n, 0),
      byStatus,
      definitionKeys: aggregate.definitionKeys,
    };
  }

  async retention(caller: TrustedCaller): Promise<RetentionResponse> {
    const tenantRetentionDays = await this.repository.retentionDays(caller.tenantId);
    const defaultRetentionDays = this.config.WORKFLOW_HISTORY_RETENTION_DAYS;
    return { retentionDays: tenantRetentionDays ?? defaultRetentionDays, tenantRetentionDays, defaultRetentionDays };
  }

  async setRetention(caller: TrustedCaller, input: SetRetention): Promise<RetentionResponse> {
    const actor = actorOf(caller);
    await this.repository.setRetentionDays(caller.tenantId, input.retentionDays, actor);
    this.logger.log(`audit: history retention of tenant ${caller.tenantId} set to ${input.retentionDays ?? 'the default'} days by ${actor}`);
    return this.retention(caller);
  }

  /** The instance's definition graph; undefined should the version row be unreadable (the summary then names no deciders). */
  private async graphOf(versionId: string): Promise<DefinitionGraph | undefined> {
    const definition = await this.repository.versionDefinition(versionId);
    const parsed = definition ? definitionSchema.safeParse(definition) : undefined;
    return parsed?.success ? DefinitionGraph.of(parsed.data) : undefined;
  }
}

function checkBusinessKey(businessKey: string): string {
  if (businessKey.length < 1 || businessKey.length > MAX_BUSINESS_KEY_LENGTH) {
    throw new ValidationError({ businessKey: [`businessKey must be 1 to ${MAX_BUSINESS_KEY_LENGTH} characters`] });
  }
  return businessKey;
}
