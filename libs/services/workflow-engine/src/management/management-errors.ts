import { DomainError } from '@lp/contracts';

/** The import body is larger than an import takes (docs/management.md, Limits). */
export class ImportTooLargeError extends DomainError {
  constructor(what: string) {
    super('Workflow.Import.TooLarge', 413, what);
  }
}

/**
 * The import is well-formed but does not fit the tenant's definition (no such version, a node that is
 * not an approval of it, tasks that contradict the status): nothing is written. `errors` names each
 * field (`tasks[2].nodeKey`), as a validation failure does.
 */
export class ImportInvalidError extends DomainError {
  constructor(errors: Record<string, string[]>) {
    super('Workflow.Import.Invalid', 422, 'The legacy instance does not fit the definition version it names; nothing was imported.', errors);
  }
}

/** The source id was imported before with a different body: an import is never updated in place. */
/** The instance imported from the source has been archived since (docs/history.md): it is read through the history routes. */
export class ImportSourceArchivedError extends DomainError {
  constructor(sourceId: string, instanceId: string) {
    super(
      'Workflow.Import.SourceArchived',
      409,
      `Source "${sourceId}" was imported before as instance ${instanceId}, which has been archived since: read it at /api/workflow/history/instances/${instanceId}.`,
    );
  }
}

export class ImportSourceConflictError extends DomainError {
  constructor(sourceId: string, instanceId: string) {
    super(
      'Workflow.Import.SourceConflict',
      409,
      `Source "${sourceId}" was imported before (instance ${instanceId}) with a different body; an import is never changed by a second one.`,
    );
  }
}

/** Another instance of the definition holds the business key (started here, or imported from another source). */
export class ImportBusinessKeyTakenError extends DomainError {
  constructor(definitionKey: string, businessKey: string) {
    super('Workflow.Import.BusinessKeyTaken', 409, `An instance of "${definitionKey}" with business key "${businessKey}" exists already in the tenant.`);
  }
}

/** A definition version still in use: non-terminal instances run on it, or its key's binding names it (active or previous). */
export class DefinitionInUseError extends DomainError {
  constructor(
    definitionId: string,
    readonly usage: { runningInstances: number; binding: 'active' | 'previous' | null },
  ) {
    const why = [
      usage.runningInstances > 0 ? `${usage.runningInstances} instance(s) not yet ended run on it` : null,
      usage.binding ? `the deployment binding names it as the ${usage.binding} version` : null,
    ].filter((w): w is string => w !== null);
    super(
      'Workflow.Definition.InUse',
      409,
      `Definition version ${definitionId} is in use: ${why.join('; ')}. Wait for the instances to end and move the binding on, or (platform administrators) delete with force=true.`,
    );
  }
}

/** The task's node assigns no role: there is nothing policy-management could re-resolve. */
export class NoRoleAssigneeError extends DomainError {
  constructor(nodeKey: string) {
    super('Workflow.Management.NoRoleAssignee', 422, `Approval "${nodeKey}" assigns no role: its assignees do not change with role membership.`);
  }
}

/**
 * The refreshed seats would decide the node visit (e.g. every remaining seat of an `all` node voted)
 * or leave it without anyone to decide: a management refresh never moves a process on, as a proxy
 * completion never does (docs/management.md). Nothing of that visit changes.
 */
export class RefreshWouldDecideError extends DomainError {
  constructor(nodeKey: string, visit: number, why: string) {
    super('Workflow.Management.RefreshWouldDecide', 422, `Refreshing the candidates of "${nodeKey}" (visit ${visit}) ${why}; nothing of it was changed.`);
  }
}
