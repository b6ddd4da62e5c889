import { DomainError } from '@lp/contracts';

/** The instance is not in a state the operation applies to (e.g. a vote on a Suspended or ended instance). */
export class InvalidStateError extends DomainError {
  constructor(message: string) {
    super('Workflow.InvalidState', 409, message);
  }
}

/**
 * The task is no longer open: decided by its assignee already, or cancelled because the node was
 * closed by another vote meanwhile (the loser of two concurrent `any` votes gets this).
 */
export class TaskNotPendingError extends DomainError {
  constructor(taskId: string, status: string) {
    super('Workflow.Task.NotPending', 409, `Task ${taskId} is ${status}, not Pending: it was decided or its node was closed meanwhile. Reload the task.`);
  }
}

/** No active version is bound to the key in the caller's tenant. */
export class NoActiveDefinitionError extends DomainError {
  constructor(key: string) {
    super('Workflow.Definition.NotActive', 404, `Definition "${key}" has no active version in this tenant.`);
  }
}

/** Start or complete variables larger than the runtime accepts (docs/runtime.md, Limits). */
export class VariablesTooLargeError extends DomainError {
  constructor(max: number) {
    super('Workflow.Runtime.VariablesTooLarge', 413, `The process variables exceed ${max} bytes (compact JSON).`);
  }
}

/** The instance changed since the version the client read (`version` in the body): reload and retry. */
export class InstanceVersionConflictError extends DomainError {
  constructor(id: string, expected: number, current: number) {
    super('Workflow.ConcurrencyConflict', 409, `Instance ${id} is at version ${current}, not ${expected}: it changed meanwhile. Reload it and retry.`);
  }
}

/** The node's definition does not allow the operation (`operations.transfer`), or its input makes no sense (transfer to oneself). */
export class TaskOperationNotAllowedError extends DomainError {
  constructor(message: string) {
    super('Workflow.Runtime.OperationNotAllowed', 422, message);
  }
}

/**
 * A proxy completion (batch-complete) would decide its approval node: that vote is left to an
 * assignee, since a proxy completion never moves the process past a node (docs/runtime.md).
 */
export class ProxyWouldDecideError extends DomainError {
  constructor(taskId: string, nodeKey: string) {
    super(
      'Workflow.Runtime.ProxyWouldDecide',
      422,
      `Approving task ${taskId} would decide approval "${nodeKey}": a proxy completion never moves the process on; that vote is left to an assignee.`,
    );
  }
}

/** The instance ran on a definition version that was deleted since (docs/management.md): its graph is gone, its rows are kept. */
export class DefinitionVersionDeletedError extends DomainError {
  constructor(versionId: string) {
    super('Workflow.Definition.Deleted', 410, `The definition version ${versionId} this instance ran on was deleted; its instance and tasks are kept.`);
  }
}
