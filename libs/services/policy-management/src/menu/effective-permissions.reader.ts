import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface EffectivePermissions {
  codes: string[];
  /** Epoch ms of the earliest expiry among the active temporary grants counted; null when none. */
  validUntil: number | null;
}

/**
 * The permission codes a subject holds in a tenant: the permissions of its roles plus those of its
 * active temporary grants (not revoked, not expired). Delegated grants are not counted: they act
 * only through a delegated token, not as the delegator's own permissions; ABAC, ReBAC and features
 * are decided per request and are not part of a permission list either.
 */
@Injectable()
export class EffectivePermissionsReader {
  constructor(private readonly dataSource: DataSource) {}

  async read(tenantId: string, subject: string): Promise<EffectivePermissions> {
    const [row]: Array<{ codes: string[]; valid_until_ms: string | null }> = await this.dataSource.query(
      `SELECT
         (SELECT coalesce(array_agg(DISTINCT c ORDER BY c), '{}') FROM (
            SELECT rp.permission_code AS c
              FROM authz.user_role ur
              JOIN authz.role_permission rp ON rp.role_id = ur.role_id AND rp.tenant_id = ur.tenant_id
             WHERE ur.tenant_id = $1 AND ur.subject = $2
            UNION
            SELECT unnest(g.permission_codes)
              FROM authz.temporary_grant g
             WHERE g.tenant_id = $1 AND g.subject = $2 AND g.revoked_at IS NULL AND g.expires_at > now()) held) AS codes,
         (SELECT floor(extract(epoch FROM min(g.expires_at)) * 1000)::text
            FROM authz.temporary_grant g
           WHERE g.tenant_id = $1 AND g.subject = $2 AND g.revoked_at IS NULL AND g.expires_at > now()) AS valid_until_ms`,
      [tenantId, subject],
    );
    return { codes: row.codes, validUntil: row.valid_until_ms === null ? null : Number(row.valid_until_ms) };
  }
}
