import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isPlatformPermission, modulesOfFeature, PLATFORM_TENANT } from '@lp/contracts';

/** Why the caller holds a permission. */
export type PermissionSource =
  | { kind: 'role'; role: string }
  | { kind: 'temporaryGrant'; grantId: string; expiresAt: string }
  /** Usable only with a delegated token acting for `from`; bounded by the grant and by `from` still holding the code. */
  | { kind: 'delegation'; from: string; grantId: string; expiresAt: string };

export interface HeldPermission {
  code: string;
  /** Roles first (by name), then temporary grants, then delegations (each by expiry, then id). */
  sources: PermissionSource[];
}

export interface DisabledFeature {
  feature: string;
  /** The modules it switches off: nothing in them is permitted while it is disabled. */
  modules: string[];
}

export interface EffectivePermissions {
  /** Codes the subject holds itself (roles, active temporary grants), sorted; delegations excluded. */
  codes: string[];
  /** Every code with its sources, delegations received included, sorted by code. */
  permissions: HeldPermission[];
  disabledFeatures: DisabledFeature[];
  /** Delegators whose own authority backs a listed delegation: a change of theirs changes this view. */
  delegators: string[];
  /** Epoch ms of the earliest expiry among the grants listed (this view's own end); null when none. */
  validUntil: number | null;
}

type Row<T extends string> = Record<T, string>;
interface DelegationRow {
  id: string;
  delegator: string;
  code: string;
  expires_at: Date;
  /** Set when no role of the delegator holds the code: the latest expiry of the delegator's temporary grants holding it. */
  delegator_until: Date | null;
  role_backed: boolean;
}

const SOURCE_ORDER: Record<PermissionSource['kind'], number> = { role: 0, temporaryGrant: 1, delegation: 2 };

function compareSources(a: PermissionSource, b: PermissionSource): number {
  if (a.kind !== b.kind) return SOURCE_ORDER[a.kind] - SOURCE_ORDER[b.kind];
  if (a.kind === 'role' && b.kind === 'role') return a.role.localeCompare(b.role);
  const [x, y] = [a as Exclude<PermissionSource, { kind: 'role' }>, b as Exclude<PermissionSource, { kind: 'role' }>];
  return x.expiresAt.localeCompare(y.expiresAt) || x.grantId.localeCompare(y.grantId);
}

/**
 * What a subject holds in a tenant, with why: one query per source (role bindings, temporary
 * grants, delegations received, feature state), never one per role or grant. A grant counts while
 * not revoked and `now < expiresAt`, as in the decision core. A delegation received is listed for
 * the codes its delegator still holds (a role, or an active temporary grant, which then bounds it):
 * the decision core permits nothing beyond that. Codes outside the catalog (a grant naming a code
 * since removed) are left out: this is the caller's menu, in the catalog's terms. So are
 * platform-level codes outside the platform tenant, which the decision core denies whatever rows
 * exist (a grant older than the code's level): the menu never offers what is always refused. ABAC
 * rules and relations decide per request and are not part of a permission list.
 */
@Injectable()
export class EffectivePermissionsReader {
  constructor(private readonly dataSource: DataSource) {}

  async read(tenantId: string, subject: string, catalog: ReadonlySet<string>): Promise<EffectivePermissions> {
    const [roles, grants, delegations, features] = await Promise.all([
      this.dataSource.query(
        `SELECT DISTINCT rp.permission_code AS code, ur.role_name AS role
           FROM authz.user_role ur
           JOIN authz.role_permission rp ON rp.role_id = ur.role_id AND rp.tenant_id = ur.tenant_id
          WHERE ur.tenant_id = $1 AND ur.subject = $2`,
        [tenantId, subject],
      ) as Promise<Row<'code' | 'role'>[]>,
      this.dataSource.query(
        `SELECT g.id, g.expires_at, unnest(g.permission_codes) AS code
           FROM authz.temporary_grant g
          WHERE g.tenant_id = $1 AND g.subject = $2 AND g.revoked_at IS NULL AND g.expires_at > now()`,
        [tenantId, subject],
      ) as Promise<Array<{ id: string; expires_at: Date; code: string }>>,
      this.dataSource.query(
        `SELECT dg.id, dg.delegator, dg.expires_at, c.code,
                EXISTS (SELECT 1 FROM authz.user_role ur
                          JOIN authz.role_permission rp ON rp.role_id = ur.role_id AND rp.tenant_id = ur.tenant_id
                         WHERE ur.tenant_id = dg.tenant_id AND ur.subject = dg.delegator AND rp.permission_code = c.code) AS role_backed,
                (SELECT max(g.expires_at) FROM authz.temporary_grant g
                  WHERE g.tenant_id = dg.tenant_id AND g.subject = dg.delegator AND g.revoked_at IS NULL
                    AND g.expires_at > now() AND c.code = ANY (g.permission_codes)) AS delegator_until
           FROM authz.delegated_grant dg
          CROSS JOIN LATERAL unnest(dg.permission_codes) AS c(code)
          WHERE dg.tenant_id = $1 AND dg.actor = $2 AND dg.revoked_at IS NULL AND dg.expires_at > now()`,
        [tenantId, subject],
      ) as Promise<DelegationRow[]>,
      this.dataSource.query(
        `SELECT d.code, coalesce(o.enabled, d.default_enabled) AS enabled
           FROM authz.feature_definition d
           LEFT JOIN authz.feature_override o ON o.feature_code = d.code AND o.tenant_id = $1`,
        [tenantId],
      ) as Promise<Array<{ code: string; enabled: boolean }>>,
    ]);

    const byCode = new Map<string, PermissionSource[]>();
    const outsidePlatform = tenantId !== PLATFORM_TENANT;
    const add = (code: string, source: PermissionSource) => {
      if (!catalog.has(code) || (outsidePlatform && isPlatformPermission(code))) return;
      const sources = byCode.get(code) ?? [];
      sources.push(source);
      byCode.set(code, sources);
    };
    const expiries: number[] = [];
    for (const row of roles) add(row.code, { kind: 'role', role: row.role });
    for (const row of grants) {
      add(row.code, { kind: 'temporaryGrant', grantId: row.id, expiresAt: new Date(row.expires_at).toISOString() });
      expiries.push(new Date(row.expires_at).getTime());
    }
    const codes = [...byCode.keys()].sort();
    const delegators = new Set<string>();
    for (const row of delegations) {
      if (!row.role_backed && row.delegator_until === null) continue;
      const until = Math.min(new Date(row.expires_at).getTime(), row.role_backed ? Infinity : new Date(row.delegator_until as Date).getTime());
      add(row.code, { kind: 'delegation', from: row.delegator, grantId: row.id, expiresAt: new Date(until).toISOString() });
      expiries.push(until);
      delegators.add(row.delegator);
    }

    const permissions = [...byCode.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, sources]) => ({ code, sources: dedupe(sources).sort(compareSources) }));
    const disabledFeatures = features
      .filter((f) => f.enabled === false)
      .map((f) => ({ feature: f.code, modules: modulesOfFeature(f.code) }))
      .sort((a, b) => a.feature.localeCompare(b.feature));
    return {
      codes,
      permissions,
      disabledFeatures,
      delegators: [...delegators].sort(),
      validUntil: expiries.length === 0 ? null : Math.min(...expiries),
    };
  }
}

/** The same role can reach a code twice (two role-permission rows are not possible, but two bindings are). */
function dedupe(sources: PermissionSource[]): PermissionSource[] {
  const seen = new Set<string>();
  return sources.filter((s) => {
    const key = JSON.stringify(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
