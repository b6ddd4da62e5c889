import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TrustedCaller } from '@lp/contracts';
import { CorrelationContext } from '@lp/platform/observability';

/** The operations audited row by row in `workflow.admin_audit` (`workflow.instance.manage`; `archive`: docs/history.md). */
export type AdminOperation = 'start-at-node' | 'reset' | 'transfer-applicant' | 'batch-complete' | 'archive';

export interface AdminAuditEntry {
  operation: AdminOperation;
  instanceId: string;
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
    await manager.query(
      `INSERT INTO "workflow"."admin_audit"
         ("id", "tenant_id", "operation", "subject", "actor", "on_behalf_of", "instance_id", "task_id", "before", "after", "reason", "correlation_id")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, $11, $12)`,
      [
        randomUUID(),
        caller.tenantId,
        entry.operation,
        caller.subject,
        actor,
        entry.onBehalfOf ?? null,
        entry.instanceId,
        entry.taskId ?? null,
        entry.before === null ? null : JSON.stringify(entry.before),
        JSON.stringify(entry.after),
        entry.reason ?? null,
        CorrelationContext.current() ?? null,
      ],
    );
    const who = actor ? `${actor} for ${caller.subject}` : caller.subject;
    const task = entry.taskId ? ` task ${entry.taskId}${entry.onBehalfOf ? ` on behalf of ${entry.onBehalfOf}` : ''}` : '';
    this.logger.log(
      `audit: instance ${entry.instanceId}${task} ${entry.operation} by ${who} in tenant ${caller.tenantId}: ` +
        `${JSON.stringify(entry.before)} -> ${JSON.stringify(entry.after)}${entry.reason ? ` (${entry.reason})` : ''}`,
    );
  }
}
