import { Injectable } from '@nestjs/common';
import { EventTypes, PermissionRequestChangedPayload, TrustedCaller } from '@lp/contracts';
import { Page, pageOf } from '@lp/platform/http';
import { PermissionRequestEntity } from '../policy-store/entities/permission-request.entity';
import { PolicyChanges } from '../policy-change/policy-changes';
import { PermissionUnknownError } from '../catalog/permission-unknown.error';
import { assertGrantableInTenant } from '../catalog/permission-platform-only.error';
import { CreatePermissionRequestDto } from './dto/create-permission-request.dto';
import { ListPermissionRequestsQuery } from './dto/list-permission-requests.query';
import { PermissionRequestResponse } from './dto/permission-request.response';
import { PermissionRequestApprovals } from './permission-request-approvals';
import { entityResponse, PermissionRequestsRepository } from './permission-requests.repository';
import { RequestRequiresUserError, TooManyPendingRequestsError } from './permission-requests.errors';

/** A user may have this many requests waiting at once: the filing route needs no permission. */
export const MAX_PENDING_REQUESTS_PER_SUBJECT = 10;

/** Filing and reading permission requests; deciding them is `PermissionRequestDecisions`. */
@Injectable()
export class PermissionRequestsService {
  constructor(
    private readonly repository: PermissionRequestsRepository,
    private readonly changes: PolicyChanges,
    private readonly approvals: PermissionRequestApprovals,
  ) {}

  /** The caller asks for itself; only a user (not an application, not a delegate) files. */
  file(caller: TrustedCaller, dto: CreatePermissionRequestDto): Promise<PermissionRequestResponse> {
    if (caller.kind !== 'user') throw new RequestRequiresUserError(caller.kind);
    return this.changes.apply(caller, async (tx) => {
      const unknown = await this.repository.unknownCodes(tx.manager, dto.permissionCodes);
      if (unknown.length > 0) throw new PermissionUnknownError(unknown);
      assertGrantableInTenant(caller.tenantId, dto.permissionCodes);
      if ((await this.repository.pendingOf(tx.manager, caller.tenantId, caller.subject)) >= MAX_PENDING_REQUESTS_PER_SUBJECT) {
        throw new TooManyPendingRequestsError(MAX_PENDING_REQUESTS_PER_SUBJECT);
      }
      const request = await tx.manager.save(
        tx.manager.create(PermissionRequestEntity, {
          tenantId: caller.tenantId,
          subject: caller.subject,
          permissionCodes: dto.permissionCodes,
          durationSeconds: dto.durationSeconds,
          reason: dto.reason,
          status: 'pending',
          decidedBy: null,
          decidedAt: null,
          decisionNote: null,
          grantId: null,
          workflowInstanceId: null,
        }),
      );
      const { path, workflowInstanceId } = await this.approvals.begin(request, tx);
      if (workflowInstanceId) {
        request.workflowInstanceId = workflowInstanceId;
        await tx.manager.update(PermissionRequestEntity, { id: request.id, tenantId: request.tenantId }, { workflowInstanceId });
      }
      const after = entityResponse(request, null);
      const payload: PermissionRequestChangedPayload = {
        tenantId: request.tenantId,
        requestId: request.id,
        subject: request.subject,
        status: 'pending',
        approval: path,
        // What the workflow engine starts the approval with; the routes need none of it in the event.
        ...(path === 'workflow' && { permissionCodes: [...request.permissionCodes], durationSeconds: request.durationSeconds, reason: request.reason }),
      };
      await tx.record({
        change: 'permission-request.filed',
        tenantId: request.tenantId,
        targetType: 'permission-request',
        targetId: request.id,
        after,
        events: [{ type: EventTypes.authorization.permissionRequestChanged, payload }],
      });
      return after;
    });
  }

  async mine(caller: TrustedCaller, query: ListPermissionRequestsQuery): Promise<Page<PermissionRequestResponse>> {
    const [items, total] = await this.repository.list(caller.tenantId, caller.subject, query.status ?? null, query);
    return pageOf(items, total, query);
  }

  async list(caller: TrustedCaller, query: ListPermissionRequestsQuery): Promise<Page<PermissionRequestResponse>> {
    const [items, total] = await this.repository.list(caller.tenantId, null, query.status ?? null, query);
    return pageOf(items, total, query);
  }
}
