import { Injectable } from '@nestjs/common';
import { PermissionRequestEntity } from '../policy-store/entities/permission-request.entity';
import { PolicyChangeTransaction } from '../policy-change/policy-changes';

/** How a filed request is decided: by a workflow instance the engine starts for it, or by people through the routes. */
export type ApprovalPath = 'workflow' | 'route';

/** What started deciding a filed request. */
export interface ApprovalStart {
  path: ApprovalPath;
  /** The instance deciding it, when one was started in the filing transaction (the workflow adapter records it later). */
  workflowInstanceId: string | null;
}

/**
 * The port through which a filed permission request reaches whoever decides it. It is called in
 * the filing transaction; the filing event (`authorization.permission-request.changed`, `pending`)
 * carries its `path` as `approval`.
 *
 * - `DirectPermissionRequestApprovals` (`PERMISSION_REQUEST_APPROVALS=direct`): nothing to start; a
 *   holder of `authorization.permission-requests.approve|reject` decides through
 *   `POST /permission-requests/{id}/approve|reject`.
 * - `WorkflowPermissionRequestApprovals` (`workflow`, the default): the workflow engine starts a
 *   `permission-request` instance from the filing event (outbox, so filing never fails because the
 *   engine is down) and `PermissionRequestWorkflowListener` records its id from
 *   `workflow.instance.started`, then decides the request from the instance's end. While a request
 *   has a `workflowInstanceId`, the routes refuse to decide it (409 `Authorization.RequestDecidedByWorkflow`).
 */
export abstract class PermissionRequestApprovals {
  abstract begin(request: PermissionRequestEntity, tx: PolicyChangeTransaction): Promise<ApprovalStart>;
}

@Injectable()
export class DirectPermissionRequestApprovals extends PermissionRequestApprovals {
  async begin(): Promise<ApprovalStart> {
    return { path: 'route', workflowInstanceId: null };
  }
}

@Injectable()
export class WorkflowPermissionRequestApprovals extends PermissionRequestApprovals {
  async begin(): Promise<ApprovalStart> {
    return { path: 'workflow', workflowInstanceId: null };
  }
}
