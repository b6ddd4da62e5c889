import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DelegationChangedPayload, EventTypes, PermissionRequestChangedPayload, TemporaryGrantChangedPayload, TrustedCaller } from '@lp/contracts';
import { JobHandler, JobRunContext } from '@lp/platform/jobs';
import { PolicyChanges, PolicyChangeTransaction } from '../policy-change/policy-changes';
import { expireGrantsJob } from './grant-expiry.jobs';

/** Rows locked and recorded per transaction: one transaction stays short whatever the backlog. */
export const GRANT_EXPIRY_BATCH = 100;
/** Batches per table per run: a backlog larger than this is finished by the next runs, within the job's timeout. */
export const GRANT_EXPIRY_MAX_BATCHES = 50;

/** The change log's actor of expiries: no person ends a grant that runs out. */
export function grantExpiryCaller(tenantId: string): TrustedCaller {
  return { kind: 'application', subject: 'policy-management:grant-expiry', clientId: 'policy-management', tenantId, scopes: [], claimsDigest: 'grant-expiry' };
}

export interface GrantExpiryReport {
  temporaryGrants: number;
  delegations: number;
  /** Approved permission requests whose grant ended, now stored as `expired`. */
  permissionRequests: number;
}

interface ExpiredGrantRow {
  id: string;
  tenantId: string;
  subject: string;
  permissionCodes: string[];
  expiresAt: Date;
  source: string;
  sourceId: string | null;
}

interface ExpiredDelegationRow {
  id: string;
  tenantId: string;
  delegator: string;
  actor: string;
  permissionCodes: string[];
  expiresAt: Date;
}

interface Candidate {
  id: string;
  tenantId: string;
}

/**
 * Records the end of temporary grants and delegations that ran out (`expires_at <= now`) but are
 * still recorded as active (not revoked, `expired_at` null): sets `expired_at`, writes a change-log
 * entry and publishes `authorization.temporary-grant.changed` / `authorization.delegation.changed`
 * (`expired`) through the policy-change path (one transaction with the outbox, then
 * `authz.invalidate`), and stores `expired` on the approved permission request a grant came from.
 *
 * Idempotent and safe on several replicas or beside a revocation: each transaction re-checks the
 * state under `FOR UPDATE SKIP LOCKED`, so a row is recorded once; a row locked by a revocation in
 * flight is left to it (or to the next run). One transaction per tenant and batch, so each change
 * is recorded under its tenant's caller.
 */
@Injectable()
export class GrantExpiry {
  constructor(
    private readonly changes: PolicyChanges,
    private readonly dataSource: DataSource,
  ) {}

  @JobHandler(expireGrantsJob.jobName)
  async run({ now }: JobRunContext): Promise<string> {
    const report = await this.expire(now);
    return `expired ${report.temporaryGrants} temporary grants (${report.permissionRequests} permission requests) and ${report.delegations} delegations`;
  }

  async expire(now: Date): Promise<GrantExpiryReport> {
    const report: GrantExpiryReport = { temporaryGrants: 0, delegations: 0, permissionRequests: 0 };
    await this.inBatches('temporary_grant', now, async (tx, ids) => {
      const grants = await this.expireTemporaryGrants(tx, ids, now);
      report.temporaryGrants += grants.length;
      report.permissionRequests += await this.expireRequests(tx, grants, now);
      return grants.length;
    });
    await this.inBatches('delegated_grant', now, async (tx, ids) => {
      const delegations = await this.expireDelegations(tx, ids, now);
      report.delegations += delegations.length;
      return delegations.length;
    });
    return report;
  }

  /**
   * Finds a batch of candidates, then records them in one transaction per tenant. Stops at a short
   * batch, at a batch of which nothing could be recorded (all locked elsewhere: retried next run,
   * never spun on), or after `GRANT_EXPIRY_MAX_BATCHES`.
   */
  private async inBatches(table: 'temporary_grant' | 'delegated_grant', now: Date, record: (tx: PolicyChangeTransaction, ids: string[]) => Promise<number>) {
    for (let batch = 0; batch < GRANT_EXPIRY_MAX_BATCHES; batch++) {
      const candidates = await this.candidates(table, now);
      let recorded = 0;
      for (const [tenantId, ids] of byTenant(candidates)) {
        recorded += await this.changes.apply(grantExpiryCaller(tenantId), (tx) => record(tx, ids));
      }
      if (candidates.length < GRANT_EXPIRY_BATCH || recorded === 0) return;
    }
  }

  private candidates(table: 'temporary_grant' | 'delegated_grant', now: Date): Promise<Candidate[]> {
    // Served by the partial index ix_<table>_active_expiry (only rows still recorded as active).
    return this.dataSource.query(
      `SELECT "id", "tenant_id" AS "tenantId" FROM "authz"."${table}"
        WHERE "revoked_at" IS NULL AND "expired_at" IS NULL AND "expires_at" <= $1
        ORDER BY "expires_at", "id" LIMIT $2`,
      [now, GRANT_EXPIRY_BATCH],
    );
  }

  private async expireTemporaryGrants(tx: PolicyChangeTransaction, ids: string[], now: Date): Promise<ExpiredGrantRow[]> {
    const rows = await lockAndMark<ExpiredGrantRow>(
      tx.manager,
      'temporary_grant',
      ids,
      now,
      `"id", "tenant_id" AS "tenantId", "subject", "permission_codes" AS "permissionCodes", "expires_at" AS "expiresAt", "source", "source_id" AS "sourceId"`,
    );
    for (const grant of rows) {
      const expiresAt = new Date(grant.expiresAt).toISOString();
      const payload: TemporaryGrantChangedPayload = {
        tenantId: grant.tenantId,
        grantId: grant.id,
        subject: grant.subject,
        permissionCodes: [...grant.permissionCodes],
        expiresAt,
        change: 'expired',
      };
      const state = {
        grantId: grant.id,
        subject: grant.subject,
        permissionCodes: grant.permissionCodes,
        expiresAt,
        source: grant.source,
        sourceId: grant.sourceId,
      };
      await tx.record({
        change: 'temporary-grant.expired',
        tenantId: grant.tenantId,
        targetType: 'temporary-grant',
        targetId: grant.id,
        before: { ...state, revoked: false, expiredAt: null },
        after: { ...state, revoked: false, expiredAt: now.toISOString() },
        events: [{ type: EventTypes.authorization.temporaryGrantChanged, payload }],
      });
    }
    return rows;
  }

  /** The approved requests whose grant just ended: `expired` is stored as the readers already showed it. */
  private async expireRequests(tx: PolicyChangeTransaction, grants: ExpiredGrantRow[], now: Date): Promise<number> {
    const first = grants[0];
    if (!first) return 0;
    // A CTE, so pg reports the updated rows (TypeORM returns [rows, count] for a bare UPDATE).
    const updated: Array<{ id: string; subject: string; grantId: string }> = await tx.manager.query(
      `WITH expired AS (
         UPDATE "authz"."permission_request" SET "status" = 'expired', "updated_at" = $3
          WHERE "tenant_id" = $1 AND "grant_id" = ANY ($2::uuid[]) AND "status" = 'approved'
          RETURNING "id", "subject", "grant_id")
       SELECT "id", "subject", "grant_id" AS "grantId" FROM expired ORDER BY "id"`,
      [first.tenantId, grants.map((g) => g.id), now],
    );
    for (const request of updated) {
      const payload: PermissionRequestChangedPayload = { tenantId: first.tenantId, requestId: request.id, subject: request.subject, status: 'expired' };
      await tx.record({
        change: 'permission-request.expired',
        tenantId: first.tenantId,
        targetType: 'permission-request',
        targetId: request.id,
        before: { status: 'approved', grantId: request.grantId },
        after: { status: 'expired', grantId: request.grantId },
        events: [{ type: EventTypes.authorization.permissionRequestChanged, payload }],
      });
    }
    return updated.length;
  }

  private async expireDelegations(tx: PolicyChangeTransaction, ids: string[], now: Date): Promise<ExpiredDelegationRow[]> {
    const rows = await lockAndMark<ExpiredDelegationRow>(
      tx.manager,
      'delegated_grant',
      ids,
      now,
      `"id", "tenant_id" AS "tenantId", "delegator", "actor", "permission_codes" AS "permissionCodes", "expires_at" AS "expiresAt"`,
    );
    for (const delegation of rows) {
      // Same subjects as a grant or a revocation: the decision core keys delegations by the delegator.
      const payload: DelegationChangedPayload = {
        tenantId: delegation.tenantId,
        delegationId: delegation.id,
        subjects: [delegation.delegator, delegation.actor],
        change: 'expired',
      };
      const state = {
        id: delegation.id,
        delegator: delegation.delegator,
        actor: delegation.actor,
        permissionCodes: delegation.permissionCodes,
        expiresAt: new Date(delegation.expiresAt).toISOString(),
        revokedAt: null,
      };
      await tx.record({
        change: 'delegation.expired',
        tenantId: delegation.tenantId,
        targetType: 'delegated-grant',
        targetId: delegation.id,
        before: { ...state, expiredAt: null },
        after: { ...state, expiredAt: now.toISOString() },
        events: [{ type: EventTypes.authorization.delegationChanged, payload }],
      });
    }
    return rows;
  }
}

/**
 * Marks as expired those of `ids` that are still active and past expiry, re-checked under lock in
 * this transaction; rows locked elsewhere (a revocation, another run) are skipped, not waited for.
 */
async function lockAndMark<T>(manager: EntityManager, table: 'temporary_grant' | 'delegated_grant', ids: string[], now: Date, columns: string): Promise<T[]> {
  return manager.query(
    `WITH marked AS (
       UPDATE "authz"."${table}" SET "expired_at" = $2
        WHERE "id" IN (SELECT "id" FROM "authz"."${table}"
                        WHERE "id" = ANY ($1::uuid[]) AND "revoked_at" IS NULL AND "expired_at" IS NULL AND "expires_at" <= $2
                        ORDER BY "id" FOR UPDATE SKIP LOCKED)
        RETURNING *)
     SELECT ${columns} FROM marked ORDER BY "expires_at", "id"`,
    [ids, now],
  );
}

function byTenant(candidates: Candidate[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { id, tenantId } of candidates) groups.set(tenantId, [...(groups.get(tenantId) ?? []), id]);
  return groups;
}
