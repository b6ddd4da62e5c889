import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { PageQuery } from '@lp/platform/http';
import { PermissionRequestEntity, PermissionRequestStatus } from '../policy-store/entities/permission-request.entity';
import { PermissionRequestResponse } from './dto/permission-request.response';
import { effectiveRequestStatus } from './permission-request-status';

interface RequestRow {
  id: string;
  subject: string;
  permissionCodes: string[];
  durationSeconds: number;
  reason: string;
  status: PermissionRequestStatus;
  decidedBy: string | null;
  decidedAt: Date | null;
  decisionNote: string | null;
  grantId: string | null;
  grantExpiresAt: Date | null;
  workflowInstanceId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const EFFECTIVE_STATUS = `CASE WHEN r."status" = 'approved' AND g."expires_at" <= now() THEN 'expired' ELSE r."status" END`;

const FROM = `
    FROM "authz"."permission_request" r
    LEFT JOIN "authz"."temporary_grant" g ON g."id" = r."grant_id" AND g."tenant_id" = r."tenant_id"
   WHERE r."tenant_id" = $1
     AND ($2::varchar IS NULL OR r."subject" = $2)
     AND ($3::varchar IS NULL OR ${EFFECTIVE_STATUS} = $3)`;

const SELECT = `
  SELECT r."id", r."subject", r."permission_codes" AS "permissionCodes", r."duration_seconds" AS "durationSeconds",
         r."reason", r."status", r."decided_by" AS "decidedBy", r."decided_at" AS "decidedAt",
         r."decision_note" AS "decisionNote", r."grant_id" AS "grantId", g."expires_at" AS "grantExpiresAt",
         r."workflow_instance_id" AS "workflowInstanceId", r."created_at" AS "createdAt", r."updated_at" AS "updatedAt"`;

export function requestResponse(row: RequestRow, now = new Date()): PermissionRequestResponse {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  const grantExpiresAt = row.grantExpiresAt ? new Date(row.grantExpiresAt) : null;
  return {
    id: row.id,
    subject: row.subject,
    permissionCodes: [...row.permissionCodes],
    durationSeconds: row.durationSeconds,
    reason: row.reason,
    status: effectiveRequestStatus(row.status, grantExpiresAt, now),
    decidedBy: row.decidedBy,
    decidedAt: iso(row.decidedAt),
    decisionNote: row.decisionNote,
    grantId: row.grantId,
    grantExpiresAt: iso(grantExpiresAt),
    workflowInstanceId: row.workflowInstanceId,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

export function entityResponse(request: PermissionRequestEntity, grantExpiresAt: Date | null, now = new Date()): PermissionRequestResponse {
  return requestResponse({ ...request, grantExpiresAt }, now);
}

@Injectable()
export class PermissionRequestsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The tenant's requests (of one subject when given), newest first, filtered on the effective status. */
  async list(
    tenantId: string,
    subject: string | null,
    status: PermissionRequestStatus | null,
    page: PageQuery,
  ): Promise<[PermissionRequestResponse[], number]> {
    const params = [tenantId, subject, status];
    const rows: RequestRow[] = await this.dataSource.query(`${SELECT} ${FROM} ORDER BY r."created_at" DESC, r."id" LIMIT $4 OFFSET $5`, [
      ...params,
      page.pageSize,
      page.pageIndex * page.pageSize,
    ]);
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS "total" ${FROM}`, params);
    const now = new Date();
    return [rows.map((row) => requestResponse(row, now)), total];
  }

  /** Which of `codes` the permission catalog lacks. */
  async unknownCodes(manager: EntityManager, codes: string[]): Promise<string[]> {
    const rows: Array<{ code: string }> = await manager.query(
      `SELECT c.code FROM unnest($1::text[]) WITH ORDINALITY AS c(code, position)
        WHERE NOT EXISTS (SELECT 1 FROM "authz"."permission" p WHERE p."code" = c.code) ORDER BY c.position`,
      [codes],
    );
    return rows.map((r) => r.code);
  }

  pendingOf(manager: EntityManager, tenantId: string, subject: string): Promise<number> {
    return manager.count(PermissionRequestEntity, { where: { tenantId, subject, status: 'pending' } });
  }

  /** The tenant's request, locked for the rest of the transaction; null for an unknown or foreign id. */
  lockedInTenant(manager: EntityManager, tenantId: string, id: string): Promise<PermissionRequestEntity | null> {
    return manager.findOne(PermissionRequestEntity, { where: { tenantId, id }, lock: { mode: 'pessimistic_write' } });
  }
}
