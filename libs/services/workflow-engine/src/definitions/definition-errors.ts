import { DomainError, FieldProblems } from '@lp/contracts';
import type { DefinitionProblem } from '../engine';

/**
 * A definition error whose problem+json carries extension members besides the fleet's standard
 * ones (RFC 9457 §3.2): `DefinitionProblemFilter` writes them. The platform's `ProblemDetails` has
 * no place for them, and these are specific to this feature.
 */
export abstract class DefinitionErrorWithExtensions extends DomainError {
  abstract readonly extensions: Record<string, unknown>;
}

/** A draft save or publish based on another revision than the stored one: reload, merge, retry. */
export class RevisionConflictError extends DefinitionErrorWithExtensions {
  readonly extensions: { currentRevision: number };

  constructor(key: string, expected: number, current: number) {
    super(
      'Workflow.Definition.RevisionConflict',
      409,
      current === 0
        ? `The draft of "${key}" does not exist (any more); save it with revision 0 to create it.`
        : `The draft of "${key}" is at revision ${current}, not ${expected}: someone saved it meanwhile. Reload it and save again with revision ${current}.`,
    );
    this.extensions = { currentRevision: current };
  }
}

/** Authoritative validation refused the definition: nothing was written. `problems` lists every rule broken. */
export class DefinitionInvalidError extends DefinitionErrorWithExtensions {
  readonly extensions: { problems: DefinitionProblem[] };

  constructor(problems: DefinitionProblem[], what = 'The definition') {
    super('Workflow.Definition.Invalid', 422, `${what} is not valid: ${problems.length} problem(s); see \`problems\`.`, errorsOf(problems));
    this.extensions = { problems };
  }
}

/** The problems by field as the fleet's `errors` member reads them, for clients that know only that one. */
function errorsOf(problems: DefinitionProblem[]): Record<string, string[]> {
  const errors = new FieldProblems();
  for (const p of problems) errors.add(p.path ?? (p.nodeKey ? `nodes.${p.nodeKey}` : 'definition'), `${p.code}: ${p.message}`);
  return errors.toRecord();
}

/** Larger than WORKFLOW_DEFINITION_MAX_BYTES or WORKFLOW_DEFINITION_MAX_NODES allow. */
export class DefinitionTooLargeError extends DomainError {
  constructor(what: string) {
    super('Workflow.Definition.TooLarge', 413, what);
  }
}

export class NothingToRollBackError extends DomainError {
  constructor(key: string) {
    super('Workflow.Definition.NothingToRollBack', 409, `"${key}" has no previous version to restore (never switched, or already rolled back).`);
  }
}

export class NotInGrayscaleError extends DomainError {
  constructor(key: string) {
    super('Workflow.Definition.NotInGrayscale', 409, `"${key}" is not in grayscale: there is nothing to complete.`);
  }
}

/** Grayscale to the version that is active already would lose the previous one for nothing. */
export class AlreadyActiveError extends DomainError {
  constructor(key: string, version: number) {
    super('Workflow.Definition.AlreadyActive', 409, `Version ${version} of "${key}" is the active version already.`);
  }
}
