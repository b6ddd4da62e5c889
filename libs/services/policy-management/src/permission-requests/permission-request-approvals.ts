import { Injectable } from '@nestjs/common';
import { PermissionRequestEntity } from '../policy-store/entities/permission-request.entity';
import { PolicyChangeTransaction } from '../policy-change/policy-changes';

/** What started deciding a filed request: a workflow instance, or nothing (people decide through the routes). */
export interface ApprovalStart {
  workflowInstanceId: string | null;
}

/**
 * The port through which a filed permission request reaches whoever decides it. It is called in
 * the filing transaction and may record where the decision will come from.
 *
 * - `DirectPermissionRequestApprovals` (bound today): nothing to start; a holder of
 *   `authorization.permission-requests.approve|reject` decides through
 *   `POST /permission-requests/{id}/approve|reject`.
 * - A workflow adapter (later) binds in its place: it returns the id of the workflow instance it
 *   asked the engine to start (or, better, lets the engine start one from the outbox event
 *   `authorization.permission-request.changed` with status `pending` and records the id from
 *   `workflow.instance.started`). A `workflow.instance.*` consumer then calls
 *   `PermissionRequestDecisions.approve/reject` with `{ kind: 'workflow', instanceId }`: the same
 *   state checks, grant, change log and events as the routes. While a request has a
 *   `workflowInstanceId`, the routes refuse to decide it (409 `Authorization.RequestDecidedByWorkflow`).
 */
export abstract class PermissionRequestApprovals {
  abstract begin(request: PermissionRequestEntity, tx: PolicyChangeTransaction): Promise<ApprovalStart>;
}

@Injectable()
export class DirectPermissionRequestApprovals extends PermissionRequestApprovals {
  async begin(): Promise<ApprovalStart> {
    return { workflowInstanceId: null };
  }
}
