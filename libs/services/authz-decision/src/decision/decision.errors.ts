import { ValidationError } from '@lp/contracts';

/**
 * A decision request the engine refuses to evaluate (unknown action, missing module or resource
 * type, malformed caller). Thrown instead of answering, so a malformed request can never come out
 * as a Permit; the guard treats the error as a denial. A `ValidationError`, so the global problem
 * filter reports it as 400 `Validation.Failed` with the problems per field.
 */
export class InvalidDecisionRequestError extends ValidationError {
  constructor(errors: Record<string, string[]>) {
    super(errors, `The decision request is not valid: ${Object.keys(errors).join(', ')}.`);
  }
}
