import { DomainError } from '@lp/contracts';

export class RequestNotPendingError extends DomainError {
  constructor(id: string, status: string) {
    super('Authorization.RequestNotPending', 409, `Permission request ${id} is ${status}, not pending; only a pending request can be decided.`);
  }
}

export class RequestNotRevocableError extends DomainError {
  constructor(id: string, status: string) {
    super(
      'Authorization.RequestNotRevocable',
      409,
      `Permission request ${id} is ${status}; only an approved request whose grant is still running can be revoked.`,
    );
  }
}

/** Four eyes: whoever asked (as subject or as actor) does not approve. */
export class SelfApprovalError extends DomainError {
  constructor(id: string) {
    super('Authorization.SelfApprovalForbidden', 403, `Permission request ${id} was filed by the caller; another approver must approve it.`);
  }
}

/** Self-service routes file and list requests for a user's own subject only. */
export class RequestRequiresUserError extends DomainError {
  constructor(kind: string) {
    super('Authorization.RequestRequiresUser', 403, `A ${kind} caller cannot file a permission request; only a user asks for itself.`);
  }
}

export class TooManyPendingRequestsError extends DomainError {
  constructor(limit: number) {
    super('Authorization.TooManyPendingRequests', 409, `The caller already has ${limit} pending permission requests; wait for a decision first.`);
  }
}

/** Reserved for requests whose approval runs through a workflow instance (`workflow_instance_id`). */
export class RequestDecidedByWorkflowError extends DomainError {
  constructor(id: string, instanceId: string) {
    super('Authorization.RequestDecidedByWorkflow', 409, `Permission request ${id} is decided by workflow instance ${instanceId}, not through this route.`);
  }
}
