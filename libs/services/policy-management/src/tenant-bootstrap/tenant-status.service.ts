import { Injectable } from '@nestjs/common';
import { EventTypes, TenantStatus, TenantStatusChangedPayload, TenantStatusRequest, TenantStatusResult, TrustedCaller } from '@lp/contracts';
import { PolicyChanges } from '../policy-change';

interface StoredStatus {
  status: TenantStatus;
  version: number;
}

/**
 * Records a tenant's status (`authz.tenant_status`) for the decision plane: authz-decision denies
 * every caller of a suspended tenant. A real change goes through the policy-change path (change
 * log + `authorization.tenant.status-changed` through the outbox + `authz.invalidate`), which bumps
 * the tenant's policy revision, so the very next request of any of its callers is decided anew.
 *
 * operations numbers its status changes (`version`): a report older than the recorded one is
 * ignored (`stale`), the same status again only moves the version forward (`unchanged`, nothing
 * announced), so retries are free and crossing calls cannot leave the older status in force.
 */
@Injectable()
export class TenantStatusService {
  constructor(private readonly changes: PolicyChanges) {}

  record(caller: TrustedCaller, request: TenantStatusRequest): Promise<TenantStatusResult> {
    const { tenantId, status, version } = request;
    return this.changes.apply(caller, async (tx) => {
      const m = tx.manager;
      // A missing row cannot be locked with FOR UPDATE: serialize writers of this tenant's row instead.
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('authz.tenant_status'), hashtext($1))`, [tenantId]);
      const rows: Array<{ status: TenantStatus; version: string }> = await m.query(`SELECT status, version FROM authz.tenant_status WHERE tenant_id = $1`, [
        tenantId,
      ]);
      const stored: StoredStatus = rows[0] ? { status: rows[0].status, version: Number(rows[0].version) } : { status: 'active', version: 0 };
      if (version < stored.version) return { tenantId, status: stored.status, version: stored.version, outcome: 'stale' as const };

      const actor = caller.actor ?? caller.subject;
      if (version > stored.version || rows.length === 0) {
        await m.query(
          `INSERT INTO authz.tenant_status (tenant_id, status, version, updated_by, updated_at) VALUES ($1, $2, $3, $4, now())
           ON CONFLICT (tenant_id) DO UPDATE SET status = EXCLUDED.status, version = EXCLUDED.version, updated_by = EXCLUDED.updated_by, updated_at = now()`,
          [tenantId, status, version, actor],
        );
      }
      if (status === stored.status) return { tenantId, status, version, outcome: 'unchanged' as const };

      const payload: TenantStatusChangedPayload = { tenantId, status, previous: stored.status };
      await tx.record({
        change: 'tenant.status-changed',
        tenantId,
        targetType: 'tenant',
        targetId: tenantId,
        before: { status: stored.status },
        after: { status, version },
        events: [{ type: EventTypes.authorization.tenantStatusChanged, payload }],
      });
      return { tenantId, status, version, outcome: 'changed' as const };
    });
  }
}
