import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TrustedCaller } from '@lp/contracts';
import { CorrelationContext } from '@lp/platform/observability';

/**
 * The operations audited row by row in `workflow.admin_audit`: the runtime's (`workflow.instance.manage`),
 * the management routes' (docs/management.md) and archive (docs/history.md).
 */
export type AdminOperation =
  | 'start-at-node'
  | 'reset'
  | 'transfer-applicant'
  | 'batch-complete'
  | 'import-instance'
  | 'delete-definition'
  | 'delete-instance'
  | 'refresh-candidates'
  | 'archive';

export interface AdminAuditEntry {
  operation: AdminOperation;
  /** The tenant the change happened in, when it is not the caller's (a legacy import names its tenant in the body). */
  tenantId?: string;
  /** Absent only for a definition deletion, which names `definitionId` instead. */
  instanceId?: string;
  definitionId?: string;
  taskId?: string;
  /** The assignee a proxy completion voted for. */
  onBehalfOf?: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  reason?: string | null;
}

/**
 * The persistent audit of the high-privilege runtime operations (migration
 * 1764500000000-CreateAdminAuditTable): one append-only row per change, written through the
 * change's own transaction manager so it commits or rolls back with the change, plus the `audit:`
 * log line the other instance operations write.
 */
@Injectable()
export class AdminAuditTrail {
  private readonly logger = new Logger(AdminAuditTrail.name);

  async record(manager: EntityManager, caller: TrustedCaller, entry: AdminAuditEntry): Promise<void> {
    const actor = caller.actor ?? null;
    const tenantId = entry.tenantId ?? caller.tenantId;
    await manager.query(
      `INSERT INTO "workflow"."admin_audit"
         ("id", "tenant_id", "operation", "subject", "actor", "on_behalf_of", "instance_id", "task_id", "before", "after", "reason", "correlation_id", "definition_id")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13)`,
      [
        randomUUID(),
        tenantId,
        entry.operation,
        caller.subject,
        actor,
        entry.onBehalfOf ?? null,
        entry.instanceId ?? null,
        entry.taskId ?? null,
        entry.before === null ? null : JSON.stringify(entry.before),
        JSON.stringify(entry.after),
        entry.reason ?? null,
        CorrelationContext.current() ?? null,
        entry.definitionId ?? null,
      ],
    );
    const who = `${actor ? `${actor} for ${caller.subject}` : caller.subject}${tenantId === caller.tenantId ? '' : ` of tenant ${caller.tenantId}`}`;
    const target = entry.instanceId ? `instance ${entry.instanceId}` : `definition ${entry.definitionId}`;
    const task = entry.taskId ? ` task ${entry.taskId}${entry.onBehalfOf ? ` on behalf of ${entry.onBehalfOf}` : ''}` : '';
    this.logger.log(
      `audit: ${target}${task} ${entry.operation} by ${who} in tenant ${tenantId}: ` +
        `${JSON.stringify(entry.before)} -> ${JSON.stringify(entry.after)}${entry.reason ? ` (${entry.reason})` : ''}`,
    );
  }
}
