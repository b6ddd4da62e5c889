import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventTypes, NotFoundError, PermissionRequestChangedPayload, TemporaryGrantChangedPayload, TrustedCaller } from '@lp/contracts';
import { PermissionRequestEntity } from '../policy-store/entities/permission-request.entity';
import { TemporaryGrantEntity } from '../policy-store/entities/temporary-grant.entity';
import { PolicyChanges, PolicyChangeTransaction } from '../policy-change/policy-changes';
import { PermissionRequestResponse } from './dto/permission-request.response';
import { entityResponse, PermissionRequestsRepository } from './permission-requests.repository';
import { RequestDecidedByWorkflowError, RequestNotPendingError, RequestNotRevocableError, SelfApprovalError } from './permission-requests.errors';
import { effectiveRequestStatus, grantExpiry } from './permission-request-status';

/** Who is deciding: a person through a route, or a workflow instance through its events (the caller is then the voter). */
export type RequestDecider = { kind: 'route' } | { kind: 'workflow'; instanceId: string };

export const PERMISSION_REQUEST_GRANT_SOURCE = 'permission-request';

/**
 * The state changes of a filed request: approve (creates the temporary grant), reject, revoke
 * (ends the grant early). Routes and the workflow consumer both come through here, so the checks,
 * the grant and the records are the same whoever decides. The `…In` forms run in a transaction
 * opened elsewhere (the consumer's, with its processed-event record); the caller is `tx.caller`.
 */
@Injectable()
export class PermissionRequestDecisions {
  constructor(
    private readonly repository: PermissionRequestsRepository,
    private readonly changes: PolicyChanges,
  ) {}

  approve(caller: TrustedCaller, id: string, note: string | null, decider: RequestDecider = { kind: 'route' }): Promise<PermissionRequestResponse> {
    return this.changes.apply(caller, (tx) => this.approveIn(tx, id, note, decider));
  }

  reject(caller: TrustedCaller, id: string, note: string | null, decider: RequestDecider = { kind: 'route' }): Promise<PermissionRequestResponse> {
    return this.changes.apply(caller, (tx) => this.rejectIn(tx, id, note, decider));
  }

  async approveIn(tx: PolicyChangeTransaction, id: string, note: string | null, decider: RequestDecider): Promise<PermissionRequestResponse> {
    const caller = tx.caller;
    const request = await this.pending(tx, caller, id, decider);
    // Four eyes: neither the token's subject nor its actor may be the requester.
    if (request.subject === caller.subject || request.subject === caller.actor) throw new SelfApprovalError(id);
    if (request.status !== 'pending') throw new RequestNotPendingError(id, request.status);

    const approvedAt = new Date();
    const expiresAt = grantExpiry(approvedAt, request.durationSeconds);
    const decidedBy = caller.actor ?? caller.subject;
    // The partial unique index (tenant, source, source_id) is the last line against a second
    // grant for one request (e.g. a redelivered workflow event racing a route).
    const inserted: Array<{ id: string }> = await tx.manager.query(
      `INSERT INTO "authz"."temporary_grant"
         ("tenant_id", "subject", "permission_codes", "reason", "expires_at", "source", "source_id", "created_by")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT ("tenant_id", "source", "source_id") WHERE "source_id" IS NOT NULL DO NOTHING
       RETURNING "id"`,
      [request.tenantId, request.subject, request.permissionCodes, request.reason, expiresAt, PERMISSION_REQUEST_GRANT_SOURCE, request.id, decidedBy],
    );
    const [grant] = inserted;
    if (!grant) throw new RequestNotPendingError(id, 'already granted');
    const grantId = grant.id;

    const before = entityResponse(request, null);
    Object.assign(request, { status: 'approved', decidedBy, decidedAt: approvedAt, decisionNote: note, grantId });
    await tx.manager.update(
      PermissionRequestEntity,
      { id: request.id, tenantId: request.tenantId },
      { status: 'approved', decidedBy, decidedAt: approvedAt, decisionNote: note, grantId },
    );
    const after = entityResponse(request, expiresAt);
    await this.recordRequest(tx, request, 'permission-request.approved', before, after);
    await this.recordGrant(tx, request, grantId, expiresAt, 'granted');
    return after;
  }

  async rejectIn(tx: PolicyChangeTransaction, id: string, note: string | null, decider: RequestDecider): Promise<PermissionRequestResponse> {
    const caller = tx.caller;
    const request = await this.pending(tx, caller, id, decider);
    if (request.status !== 'pending') throw new RequestNotPendingError(id, request.status);
    const before = entityResponse(request, null);
    const decidedBy = caller.actor ?? caller.subject;
    const decidedAt = new Date();
    Object.assign(request, { status: 'rejected', decidedBy, decidedAt, decisionNote: note });
    await tx.manager.update(
      PermissionRequestEntity,
      { id: request.id, tenantId: request.tenantId },
      { status: 'rejected', decidedBy, decidedAt, decisionNote: note },
    );
    const after = entityResponse(request, null);
    await this.recordRequest(tx, request, 'permission-request.rejected', before, after);
    return after;
  }

  /**
   * Records the workflow instance that decides a pending request (from `workflow.instance.started`):
   * from then on the routes refuse to decide it. Only an instance its requester initiated (the
   * engine starts it so) is recorded, so nobody can take another user's request into a workflow of
   * their own. False (nothing written) when the request is unknown, no longer pending, has an
   * instance already, or was not filed by the initiator.
   */
  async recordWorkflowInstance(tx: PolicyChangeTransaction, id: string, instanceId: string, initiator: string): Promise<boolean> {
    const request = await this.repository.lockedInTenant(tx.manager, tx.caller.tenantId, id);
    if (!request || request.status !== 'pending' || request.workflowInstanceId !== null || request.subject !== initiator) return false;
    const before = entityResponse(request, null);
    request.workflowInstanceId = instanceId;
    await tx.manager.update(PermissionRequestEntity, { id: request.id, tenantId: request.tenantId }, { workflowInstanceId: instanceId });
    // Audited like every change of the request; no event: its status did not change.
    await tx.record({
      change: 'permission-request.workflow-started',
      tenantId: request.tenantId,
      targetType: 'permission-request',
      targetId: request.id,
      before,
      after: entityResponse(request, null),
      events: [],
    });
    return true;
  }

  /** Ends an approved request's grant before its expiry; the next decision for the requester is denied. */
  revoke(caller: TrustedCaller, id: string): Promise<PermissionRequestResponse> {
    return this.changes.apply(caller, async (tx) => {
      const request = await this.repository.lockedInTenant(tx.manager, caller.tenantId, id);
      if (!request) throw new NotFoundError(`Permission request ${id}`);
      const grant = request.grantId
        ? await tx.manager.findOne(TemporaryGrantEntity, {
            where: { id: request.grantId, tenantId: request.tenantId },
            lock: { mode: 'pessimistic_write' },
          })
        : null;
      const now = new Date();
      const status = effectiveRequestStatus(request.status, grant?.expiresAt ?? null, now);
      if (status !== 'approved' || !grant || grant.revokedAt) throw new RequestNotRevocableError(id, status);

      const before = entityResponse(request, grant.expiresAt);
      await tx.manager.update(TemporaryGrantEntity, { id: grant.id, tenantId: grant.tenantId }, { revokedAt: now });
      await tx.manager.update(PermissionRequestEntity, { id: request.id, tenantId: request.tenantId }, { status: 'revoked' });
      request.status = 'revoked';
      const after = entityResponse(request, grant.expiresAt);
      await this.recordRequest(tx, request, 'permission-request.revoked', before, after);
      await this.recordGrant(tx, request, grant.id, grant.expiresAt, 'revoked');
      return after;
    });
  }

  /** Whether the request is pending without a recorded instance: an event of its instance arrived before `started` was processed. */
  async awaitsWorkflowInstance(manager: EntityManager, tenantId: string, id: string): Promise<boolean> {
    const request = await this.repository.lockedInTenant(manager, tenantId, id);
    return request?.status === 'pending' && request.workflowInstanceId === null;
  }

  private async pending(tx: PolicyChangeTransaction, caller: TrustedCaller, id: string, decider: RequestDecider): Promise<PermissionRequestEntity> {
    const request = await this.repository.lockedInTenant(tx.manager, caller.tenantId, id);
    if (!request) throw new NotFoundError(`Permission request ${id}`);
    if (decider.kind === 'route' && request.workflowInstanceId) throw new RequestDecidedByWorkflowError(id, request.workflowInstanceId);
    if (decider.kind === 'workflow' && request.workflowInstanceId !== decider.instanceId)
      throw new NotFoundError(`Permission request ${id} of workflow instance ${decider.instanceId}`);
    return request;
  }

  private recordRequest(tx: PolicyChangeTransaction, request: PermissionRequestEntity, change: string, before: unknown, after: PermissionRequestResponse) {
    const payload: PermissionRequestChangedPayload = { tenantId: request.tenantId, requestId: request.id, subject: request.subject, status: after.status };
    return tx.record({
      change,
      tenantId: request.tenantId,
      targetType: 'permission-request',
      targetId: request.id,
      before,
      after,
      events: [{ type: EventTypes.authorization.permissionRequestChanged, payload }],
    });
  }

  private recordGrant(tx: PolicyChangeTransaction, request: PermissionRequestEntity, grantId: string, expiresAt: Date, change: 'granted' | 'revoked') {
    const payload: TemporaryGrantChangedPayload = {
      tenantId: request.tenantId,
      grantId,
      subject: request.subject,
      permissionCodes: [...request.permissionCodes],
      expiresAt: expiresAt.toISOString(),
      change,
    };
    const grant = {
      grantId,
      subject: request.subject,
      permissionCodes: request.permissionCodes,
      expiresAt: payload.expiresAt,
      source: PERMISSION_REQUEST_GRANT_SOURCE,
      sourceId: request.id,
    };
    return tx.record({
      change: `temporary-grant.${change}`,
      tenantId: request.tenantId,
      targetType: 'temporary-grant',
      targetId: grantId,
      before: change === 'granted' ? null : { ...grant, revoked: false },
      after: change === 'granted' ? { ...grant, revoked: false } : { ...grant, revoked: true },
      events: [{ type: EventTypes.authorization.temporaryGrantChanged, payload }],
    });
  }
}
